//go:build linux

package station_test

import (
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

// Stopping the station (Ctrl-C, SIGTERM) says what happens to the sessions
// it runs, in a line a person reads.
func TestStopSaysWhatHappensToTheSessions(t *testing.T) {
	t.Parallel()
	s := rig.StartOn(t, rig.WriteConfig(t, rig.ProjectTOML("web", t.TempDir(), "30s", "30s")))
	id := s.AddTask("web", "busy", "print working; wedge")
	s.WaitTranscript(id, "working", 20*time.Second)
	s.Stop()
	want := "buildstation: stopping the station: ending 1 session (" + id + ".1; their tasks are blocked: requeue them"
	if !strings.Contains(s.Log.String(), want) {
		t.Errorf("the station's stderr lacks %q:\n%s", want, s.Log)
	}
}
