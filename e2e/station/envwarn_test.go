//go:build linux

package station_test

import (
	"strings"
	"testing"

	"github.com/buildstation/buildstation/e2e/rig"
)

// An agent that is not on the station's PATH is said at start, in the log
// and in `status`, not discovered when its first task is blocked.
func TestStatusSaysWhatIsNotOnPath(t *testing.T) {
	home := rig.WriteConfig(t, "max_sessions = 1\n"+rig.ProjectTOML("web", t.TempDir(), "5m", "5m")+
		"\n[[projects]]\nname = \"api\"\npath = \""+t.TempDir()+"\"\ncommand = [\"no-such-agent-on-path\"]\n")
	st := rig.StartOn(t, home)
	out := st.Must("status")
	if !strings.Contains(out, `warning: project api: its agent "no-such-agent-on-path" is not on the station's PATH`) {
		t.Errorf("status does not say the agent is missing:\n%s", out)
	}
	if strings.Contains(out, "project web") {
		t.Errorf("status warns about a project whose agent is there:\n%s", out)
	}
	var js struct {
		Warnings []string `json:"warnings"`
	}
	st.MustJSON(&js, "status", "--json")
	if len(js.Warnings) != 1 {
		t.Errorf("status --json warnings = %q, want the one", js.Warnings)
	}
	if !strings.Contains(st.Log.String(), "station PATH") {
		t.Errorf("the station does not log its PATH:\n%s", rig.Tail(st.Log.String(), 20))
	}
}
