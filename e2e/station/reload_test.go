//go:build linux

package station_test

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

// A person edits config.toml while the station runs: a valid edit is
// applied at once (a new project takes tasks); a bad one changes nothing,
// and status says why with the file and line until it is fixed.
func TestConfigEditsAreAppliedLive(t *testing.T) {
	t.Parallel()
	cfg := rig.ProjectTOML("web", t.TempDir(), "30s", "30s")
	home := rig.WriteConfig(t, cfg)
	s := rig.StartOn(t, home)
	path := filepath.Join(home, "config.toml")
	projects := func() []string {
		var ps []struct {
			Name string `json:"name"`
		}
		s.MustJSON(&ps, "project", "ls", "--json")
		var names []string
		for _, p := range ps {
			names = append(names, p.Name)
		}
		return names
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		rig.Eventually(t, 20*time.Second, ok, what, s.Log)
	}

	added := cfg + rig.ProjectTOML("api", t.TempDir(), "30s", "30s")
	writeFile(t, path, added)
	waitFor("the new project", func() bool { return strings.Join(projects(), ",") == "web,api" })
	id := s.AddTask("api", "on the new project", "complete hi")
	s.WaitState(id, "done", 20*time.Second)

	bad := added + "\n[[projects]]\nname = \"docs\"\npath = " + strconv.Quote(t.TempDir()) + "\nidle_window = \"5x\"\n"
	writeFile(t, path, bad)
	var st struct {
		Warnings []string `json:"warnings"`
	}
	waitFor("a warning in status", func() bool {
		s.MustJSON(&st, "status", "--json")
		return strings.Contains(strings.Join(st.Warnings, "\n"), "keeps the config it had")
	})
	if w := strings.Join(st.Warnings, "\n"); !strings.Contains(w, "config.toml:") || !strings.Contains(w, "idle_window") || !strings.Contains(w, "keeps the config it had") {
		t.Errorf("status warnings %q", w)
	}
	if human := s.Must("status"); !strings.Contains(human, "idle_window") {
		t.Errorf("status does not say what is wrong:\n%s", human)
	}
	if got := strings.Join(projects(), ","); got != "web,api" {
		t.Errorf("a bad edit changed the projects: %s", got)
	}
	if !strings.Contains(s.Log.String(), "keeping the config the station had") {
		t.Errorf("the log does not say the edit was refused")
	}
	writeFile(t, path, added)
	waitFor("the warning to clear", func() bool {
		st.Warnings = nil // an absent field leaves the old value in place
		s.MustJSON(&st, "status", "--json")
		return !strings.Contains(strings.Join(st.Warnings, "\n"), "keeps the config it had")
	})
}
