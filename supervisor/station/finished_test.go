package station

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"
	"unicode/utf8"

	"github.com/buildstation/buildstation/supervisor"
)

// finishedNotices are the finished notices told so far.
func finishedNotices(h *harness) []supervisor.Notice {
	var out []supervisor.Notice
	for _, n := range h.notes.all() {
		if n.Kind == supervisor.NoticeFinished {
			out = append(out, n)
		}
	}
	return out
}

// Work that reaches Done is news a person acts on (it is not in main
// yet): a finished notice says so once, naming the task, its session (a
// click opens its card, where Merge is) and the agent's summary, in a
// title that fits a daemon's line; work on a branch is ready to merge. A
// task with a review is finished when
// its review approves, not when its coder completes.
func TestFinishedWorkIsTold(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := startWith(t, func(o *Options) { o.Workspaces = &fakeWorkspaces{} }, project("web", 5*time.Minute, 5*time.Minute))
		task := h.add("web", "Make the login page remember the last user across restarts")
		h.proc().say("working\r\n")
		s := h.session(task.ID)
		if err := h.st.AgentComplete(h.ctx, s.ID, "the login page remembers the last user"); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		got := finishedNotices(h)
		if len(got) != 1 {
			t.Fatalf("%d finished notices for one finished task: %+v", len(got), h.notes.all())
		}
		n := got[0]
		if n.TaskID != task.ID || n.SessionID != s.ID {
			t.Errorf("the finished notice names task %q session %q, want %s %s", n.TaskID, n.SessionID, task.ID, s.ID)
		}
		if !strings.HasPrefix(n.Title, "Finished: Make the login page") || utf8.RuneCountInString(n.Title) > noticeTitleMax {
			t.Errorf("the finished notice's title %q", n.Title)
		}
		if !strings.Contains(n.Body, "the login page remembers the last user") || !strings.Contains(n.Body, "ready to merge") {
			t.Errorf("the finished notice's body %q: want the summary and that it is ready to merge", n.Body)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		pr := project("web", 5*time.Minute, 5*time.Minute)
		pr.Review = true
		h := start(t, pr)
		task := h.add("web", "fix it")
		h.proc().say("working\r\n")
		if err := h.st.AgentComplete(h.ctx, h.session(task.ID).ID, "fixed"); err != nil {
			t.Fatal(err)
		}
		h.proc().say("reading the diff\r\n")
		synctest.Wait()
		if got := finishedNotices(h); len(got) != 0 {
			t.Fatalf("a task in review was told finished: %+v", got)
		}
		if err := h.st.AgentReview(h.ctx, h.session(task.ID).ID, supervisor.VerdictApprove, "reads well"); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		got := finishedNotices(h)
		if len(got) != 1 || got[0].TaskID != task.ID || !strings.HasPrefix(got[0].Body, "fixed\n") {
			t.Fatalf("after the review approved: %+v, want one finished notice with the coder's summary", got)
		}
		// Not on a branch: nothing to merge, and the notice says nothing of it.
		if strings.Contains(got[0].Body, "merge") {
			t.Errorf("the finished notice of work with no branch speaks of a merge: %q", got[0].Body)
		}
	})
}
