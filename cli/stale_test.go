package cli_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor/apitype"
)

// A station.json left by a station that died points at a port another
// program now holds (another local user who bound it). The CLI must find
// out that no station is there before it sends the station token, and
// say the file is stale; the program sees no secret.
func TestStaleStationFileSendsNoToken(t *testing.T) {
	home := t.TempDir()
	tok, err := apitype.LoadOrCreateToken(home)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []string
	thief := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		for k, vs := range r.Header {
			for _, v := range vs {
				seen = append(seen, k+": "+v)
			}
		}
		mu.Unlock()
		// It answers like a station would, to look the part.
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"proof":"00","working":0}`))
	}))
	defer thief.Close()
	if err := apitype.WriteStationFile(home, apitype.StationFile{URL: thief.URL, PID: os.Getpid(), StartedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BUILDSTATION_HOME", "")
	for _, args := range [][]string{{"status"}, {"task", "ls"}, {"project", "set", "web", "permission_mode=bypassPermissions"}} {
		r := run(t, "", append([]string{"--home", home}, args...)...)
		if r.code != 1 || !strings.Contains(r.stderr, "no station is running here (station.json is stale:") {
			t.Errorf("%v through a foreign listener: exit %d, stderr %q; want exit 1 saying station.json is stale", args, r.code, r.stderr)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, h := range seen {
		if strings.HasPrefix(strings.ToLower(h), "authorization:") || strings.Contains(h, tok) {
			t.Errorf("the foreign listener received %q", h)
		}
	}
}
