package update

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// standIn is a releases API on loopback answering tag, or status when set.
func standIn(t *testing.T, tag *atomic.Value, status *atomic.Int32, asked *atomic.Int32) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		if r.URL.Path != "/releases/latest" {
			http.NotFound(w, r)
			return
		}
		if s := status.Load(); s != 0 {
			w.WriteHeader(int(s))
			w.Write([]byte(`{"message":"API rate limit exceeded"}`))
			return
		}
		w.Write([]byte(`{"tag_name":"` + tag.Load().(string) + `","html_url":"https://example.invalid/releases/` + tag.Load().(string) + `"}`))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestDailyCheckAgainstAStandInServer(t *testing.T) {
	var tag atomic.Value
	tag.Store("v0.4.0")
	var status, asked atomic.Int32
	base := standIn(t, &tag, &status, &asked)
	var logBuf bytes.Buffer
	now := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	file := filepath.Join(t.TempDir(), "update.json")
	daily := func(current string) Daily {
		return Daily{Checker: Checker{Base: base, Current: current}, File: file, Now: func() time.Time { return now }, Log: slog.New(slog.NewTextHandler(&logBuf, nil))}
	}
	ctx := context.Background()

	// Newer: offered, with its link.
	rel, ok := daily("0.3.0").Check(ctx)
	if !ok || rel.Version != "0.4.0" || rel.URL != "https://example.invalid/releases/v0.4.0" {
		t.Fatalf("newer: %+v %v", rel, ok)
	}
	// Within the day: not asked again (a restarted tray neither).
	now = now.Add(23 * time.Hour)
	if _, ok := daily("0.3.0").Check(ctx); !ok || asked.Load() != 1 {
		t.Fatalf("asked %d times within a day", asked.Load())
	}
	// Same version: nothing.
	now = now.Add(2 * time.Hour)
	if _, ok := daily("0.4.0").Check(ctx); ok || asked.Load() != 2 {
		t.Fatalf("same version offered, or not asked after a day (%d)", asked.Load())
	}
	// Rate-limited: silent, logged once a day.
	status.Store(http.StatusForbidden)
	for range 3 {
		now = now.Add(25 * time.Hour)
		if _, ok := daily("0.4.0").Check(ctx); ok {
			t.Fatal("a rate-limited check offered an update")
		}
		now = now.Add(time.Hour) // asked again within the day: not asked, not logged
		daily("0.4.0").Check(ctx)
	}
	if n := strings.Count(logBuf.String(), "update check failed"); n != 3 {
		t.Fatalf("logged %d times over 3 days, want 3:\n%s", n, logBuf.String())
	}
	// Unreachable: silent too.
	unreachable := Daily{Checker: Checker{Base: "http://127.0.0.1:1", Current: "0.1.0"}, File: filepath.Join(t.TempDir(), "u.json"), Now: func() time.Time { return now }, Log: slog.New(slog.NewTextHandler(&logBuf, nil))}
	if _, ok := unreachable.Check(ctx); ok {
		t.Fatal("an unreachable server offered an update")
	}
	// Off: never asks.
	before := asked.Load()
	off := Daily{Checker: Checker{Base: "off"}, File: filepath.Join(t.TempDir(), "o.json"), Now: func() time.Time { return now }, Log: slog.New(slog.NewTextHandler(&logBuf, nil))}
	if _, ok := off.Check(ctx); ok || asked.Load() != before {
		t.Fatal("an off check asked")
	}
}

func TestNewer(t *testing.T) {
	for _, tt := range []struct {
		latest, current string
		want            bool
	}{
		{"0.4.0", "0.3.9", true},
		{"1.0.0", "0.99.0", true},
		{"0.4.0", "0.4.0", false},
		{"0.4.0", "0.4.0-dev", true},
		{"0.4.0", "0.4.0-3-gabcdef", true},
		{"0.3.0", "0.4.0-dev", false},
		{"0.4.0-rc1", "0.4.0-rc1", false},
		{"junk", "0.1.0", false},
		{"0.10.0", "0.9.0", true},
	} {
		if got := Newer(tt.latest, tt.current); got != tt.want {
			t.Errorf("Newer(%q, %q) = %v", tt.latest, tt.current, got)
		}
	}
}
