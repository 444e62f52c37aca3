package station

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// An agent ended by a signal has no exit code: the block reason says what
// ended it, not "exited with code -1".
func TestSignalledAgentIsNotCodeMinusOne(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", 5*time.Minute, 5*time.Minute))
		task := h.add("web", "killed")
		p := h.proc()
		p.say("working\r\n")
		p.once.Do(func() { close(p.exited); p.outW.Close() }) // Wait: -1, "killed"
		got := h.task(task.ID)
		if got.State != supervisor.TaskBlocked || !strings.HasPrefix(got.Reason, "killed, before completing the task") || strings.Contains(got.Reason, "-1") {
			t.Fatalf("task %v, reason %q", got.State, got.Reason)
		}
	})
}

func TestResumeNoteGrammar(t *testing.T) {
	note := resumeNote(supervisor.Resumed{Green: "abc1234", Saved: "bs/t1-attempt-1", SavedCommits: []string{"d00d WIP"}, Dirty: true}, "bs/t1")
	if !strings.Contains(note, "The uncommitted work was saved on branch bs/t1-attempt-1") {
		t.Errorf("note: %s", note)
	}
	note = resumeNote(supervisor.Resumed{Green: "abc1234", Saved: "bs/t1-attempt-1", SavedCommits: []string{"1 a", "2 b"}}, "bs/t1")
	if !strings.Contains(note, "The later commits were saved") {
		t.Errorf("note: %s", note)
	}
}

// A base the gate fails on is never called green: the note names the
// commit the gate judged and its failure.
func TestResumeNoteNeverCallsARedBaseGreen(t *testing.T) {
	red := &supervisor.GateVerdict{SHA: "8671062abc", Tail: "FAIL: TestLogin\n"}
	note := resumeNote(supervisor.Resumed{Green: "8671062abc", GreenSubject: "init", AtBase: true, BaseGate: red}, "bs/b/t3")
	if strings.Contains(note, "green") || !strings.Contains(note, "8671062abc \"init\", the commit the task started from") ||
		!strings.Contains(note, "The gate failed on 8671062abc; the end of its output:\nFAIL: TestLogin") {
		t.Errorf("note: %s", note)
	}
}
