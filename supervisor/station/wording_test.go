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
