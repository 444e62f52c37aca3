package cli_test

import (
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor/api/apitest"
)

// A person reads a project's windows in plain words, as the notices and
// cards say them ("6 min", not Go's "6m0s"): project set, ls and show
// over the real station.
func TestProjectWindowsInPlainWords(t *testing.T) {
	home := serve(t, apitest.Areas(apitest.Board(t, "web")))
	set := run(t, "", "--home", home, "project", "set", "web", "idle_window=6m")
	if set.code != 0 || !strings.Contains(set.stdout, "web: idle 6 min, block ") {
		t.Errorf("project set web idle_window=6m: exit %d, stdout %q, stderr %q", set.code, set.stdout, set.stderr)
	}
	ls := run(t, "", "--home", home, "project", "ls")
	show := run(t, "", "--home", home, "project", "show", "web")
	if !strings.Contains(show.stdout, "6 min") || !strings.Contains(ls.stdout, "6 min") {
		t.Errorf("project ls and show do not say the idle window as 6 min:\n%s\n%s", ls.stdout, show.stdout)
	}
	for _, out := range []string{set.stdout, ls.stdout, show.stdout} {
		if strings.Contains(out, "m0s") {
			t.Errorf("a duration in Go's words:\n%s", out)
		}
	}
}
