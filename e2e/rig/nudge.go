//go:build unix

package rig

import (
	"strings"
	"time"
)

// NudgedToDone adds to project a task whose agent says it is done without
// completing, waits up to d for the watchdog's nudge to get it completed,
// and fails the test unless the nudge reached the agent as text then a
// separate Enter, as a person types it: read-submit reads a pasted burst
// as not submitted. Both backends (a pty's write, tmux's keys) must pass
// it. It returns the task's id.
func (s *Station) NudgedToDone(project string, d time.Duration) string {
	s.T.Helper()
	id := s.AddTask(project, "forgetful", "print All tests pass.; read-submit; complete finished after the nudge")
	if got := s.WaitState(id, "done", d); got.Summary != "finished after the nudge" {
		s.T.Fatalf("summary %q", got.Summary)
	}
	// The transcript follows the console within a moment (its writer
	// gathers output), apart from the agent's report.
	s.WaitTranscript(id, "got: Note:", 10*time.Second)
	if tr := s.Transcript(id, 1); strings.Contains(tr, "pasted, not submitted") {
		s.T.Fatalf("the nudge was not submitted as text then Enter:\n%s", tr)
	}
	return id
}
