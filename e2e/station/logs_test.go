//go:build linux

package station_test

import (
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

// An ended session's output is still there to read, by task id, rendered
// to plain text; session verbs take a task id and pick its live session.
func TestLogsOfAnEndedSessionAndTaskIDsForSessions(t *testing.T) {
	t.Parallel()
	s := rig.StartOn(t, rig.WriteConfig(t, rig.ProjectTOML("web", t.TempDir(), "30s", "30s")))
	done := s.AddTask("web", "short", "print \x1b[1mhello\x1b[0m from the agent; complete said hello")
	s.WaitState(done, "done", 20*time.Second)
	out := s.Must("logs", done)
	if !strings.Contains(out, "hello from the agent") || strings.Contains(out, "\x1b") {
		t.Errorf("logs %s = %q, want the agent's words as plain text", done, out)
	}
	if raw := s.Must("logs", done, "--raw"); !strings.Contains(raw, "\x1b[1mhello") {
		t.Errorf("logs --raw = %q, want the bytes", raw)
	}

	live := s.AddTask("web", "reader", "print ready; read; complete got it")
	s.WaitTranscript(live, "ready", 20*time.Second)
	s.Must("session", "send", live, "go on") // the task id, not t2.1
	s.WaitState(live, "done", 20*time.Second)

	_, errOut, code := s.Run("session", "send", "t7", "hi")
	if code != 1 || !strings.Contains(errOut, "t2.3") {
		t.Errorf("no live session: exit %d %q, want a sentence saying what ids look like", code, errOut)
	}
}
