//go:build unix

package cli_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// plantedHome is a home as another user could leave it in a shared folder:
// open to everyone, with a station.json that points at their listener.
// It returns the home and how many requests carrying a token reached the
// listener.
func plantedHome(t *testing.T, mode os.FileMode, url func(string) string) (string, *atomic.Int32) {
	t.Helper()
	var got atomic.Int32
	thief := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			got.Add(1)
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{}`)
	}))
	t.Cleanup(thief.Close)
	home := filepath.Join(t.TempDir(), "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "token"), []byte("the-users-station-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	sf := fmt.Sprintf(`{"url": %q, "pid": 1, "started_at": "2026-01-01T00:00:00Z"}`, url(thief.URL))
	if err := os.WriteFile(filepath.Join(home, "station.json"), []byte(sf), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(home, mode); err != nil {
		t.Fatal(err)
	}
	return home, &got
}

// A home open to other users is refused before its station.json is
// trusted: the token never leaves.
func TestCLIRefusesAHomeOpenToOthers(t *testing.T) {
	t.Setenv("BUILDSTATION_HOME", "")
	home, got := plantedHome(t, 0o777, func(u string) string { return u })
	r := run(t, "", "--home", home, "status")
	if r.code == 0 || !strings.Contains(r.stderr, "open to other users") || !strings.Contains(r.stderr, "chmod 700") {
		t.Errorf("status on a 0777 home: exit %d, stderr %q; want a refusal saying chmod 700", r.code, r.stderr)
	}
	if n := got.Load(); n != 0 {
		t.Errorf("the planted station.json received the token %d times", n)
	}
}

// A station.json naming anything but a loopback address is refused: a
// station listens on 127.0.0.1 only.
func TestCLIRefusesANonLoopbackStationFile(t *testing.T) {
	t.Setenv("BUILDSTATION_HOME", "")
	// The thief listens on loopback too, but is named by a host name that
	// resolves elsewhere as easily; test with the name and with a routable
	// address form.
	for _, bad := range []string{"http://example.invalid:80", "http://10.1.2.3:8080", "https://127.0.0.1:1"} {
		home, _ := plantedHome(t, 0o700, func(string) string { return bad })
		r := run(t, "", "--home", home, "status")
		if r.code == 0 || !strings.Contains(r.stderr, "not a loopback address") {
			t.Errorf("station.json url %s: exit %d, stderr %q; want a refusal", bad, r.code, r.stderr)
		}
	}
}

// A home owned by another user is refused even if its mode is 0700.
func TestCLIRefusesAHomeOfAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a folder to another user")
	}
	t.Setenv("BUILDSTATION_HOME", "")
	home, got := plantedHome(t, 0o700, func(u string) string { return u })
	if err := os.Chown(home, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	r := run(t, "", "--home", home, "status")
	if r.code == 0 || !strings.Contains(r.stderr, "belongs to another user") {
		t.Errorf("status on another user's home: exit %d, stderr %q", r.code, r.stderr)
	}
	if n := got.Load(); n != 0 {
		t.Errorf("the planted station.json received the token %d times", n)
	}
}
