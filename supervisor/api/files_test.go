package api_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor/apitype"
)

func asError(err error, target **apitype.Error) bool { return errors.As(err, target) }

func TestStationFileRoundTrip(t *testing.T) {
	home := t.TempDir()
	if _, err := apitype.ReadStationFile(home); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("no file: err = %v, want fs.ErrNotExist", err)
	}
	want := apitype.StationFile{URL: "http://127.0.0.1:1234", PID: 42, StartedAt: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}
	if err := apitype.WriteStationFile(home, want); err != nil {
		t.Fatal(err)
	}
	got, err := apitype.ReadStationFile(home)
	if err != nil || got != want {
		t.Fatalf("got %+v, %v; want %+v", got, err, want)
	}
	b, _ := os.ReadFile(filepath.Join(home, "station.json"))
	for _, k := range []string{`"url"`, `"pid"`, `"started_at"`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("station.json lacks %s: %s", k, b)
		}
	}
	checkMode(t, filepath.Join(home, "station.json"))
	if entries, _ := os.ReadDir(home); len(entries) != 1 {
		t.Errorf("temp files left behind: %v", entries)
	}
}

func TestToken(t *testing.T) {
	home := t.TempDir()
	if _, err := apitype.ReadToken(home); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("no token: err = %v, want fs.ErrNotExist", err)
	}
	tok, err := apitype.LoadOrCreateToken(home)
	if err != nil {
		t.Fatal(err)
	}
	if len(tok) != 64 {
		t.Errorf("token %q is not 32 bytes of hex", tok)
	}
	path := filepath.Join(home, "token")
	checkMode(t, path)
	again, err := apitype.LoadOrCreateToken(home)
	if err != nil || again != tok {
		t.Fatalf("second load = %q, %v; want the same token", again, err)
	}
	if runtime.GOOS != "windows" {
		os.Chmod(path, 0o644)
		if _, err := apitype.LoadOrCreateToken(home); err != nil {
			t.Fatal(err)
		}
		checkMode(t, path)
	}
	if read, err := apitype.ReadToken(home); err != nil || read != tok {
		t.Fatalf("apitype.ReadToken = %q, %v", read, err)
	}
}

func checkMode(t *testing.T, path string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		return // no unix modes; the home folder's ACL protects it
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("%s mode = %v, want 0600", path, fi.Mode().Perm())
	}
}
