package cli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api/apitest"
)

// project show prints one project of the real station over a real board,
// a line per field (or --json); a name that is no project fails with the
// station's sentence saying where to look.
func TestProjectShow(t *testing.T) {
	home := serve(t, apitest.Areas(apitest.Board(t, "web")))
	r := run(t, "", "--home", home, "project", "show", "web")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("project show web: exit %d, stderr %q", r.code, r.stderr)
	}
	lines := map[string]bool{}
	for line := range strings.Lines(r.stdout) {
		lines[strings.Join(strings.Fields(line), " ")] = true
	}
	for _, want := range []string{"name: web", "agent: agent", "queued: 0", "paused: no", "idle_window: 5 min"} {
		if !lines[want] {
			t.Errorf("project show web lacks %q:\n%s", want, r.stdout)
		}
	}
	r = run(t, "", "--home", home, "project", "show", "web", "--json")
	var p supervisor.ProjectInfo
	if err := json.Unmarshal([]byte(r.stdout), &p); err != nil || p.Name != "web" {
		t.Fatalf("project show web --json: %v %q", err, r.stdout)
	}
	r = run(t, "", "--home", home, "project", "show", "nope")
	if r.code != 1 || r.stderr != "buildstation: no project \"nope\" here; buildstation project ls lists them\n" {
		t.Fatalf("project show nope: exit %d, stderr %q", r.code, r.stderr)
	}
}
