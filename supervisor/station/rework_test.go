package station

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// A pull request's feedback sends the done task back to its agent as a
// new attempt with the feedback as its note, review_rounds times; then
// the task blocks for a person, saying why in one sentence (#39: the
// review loop's bound).
func TestReworkBoundedByReviewRounds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := project("web", 5*time.Minute, 5*time.Minute)
		p.ReviewRounds = 2
		h := start(t, p)
		task := h.add("web", "fix login")
		for round := 1; round <= 3; round++ {
			h.proc()
			s := h.session(task.ID)
			if err := h.st.Agent.AgentComplete(h.ctx, s.ID, "fixed it"); err != nil {
				t.Fatal(err)
			}
			synctest.Wait()
			if got := h.task(task.ID); got.State != supervisor.TaskDone {
				t.Fatalf("round %d: %s, want done", round, got.State)
			}
			got, err := h.st.Tasks.Rework(h.ctx, task.ID, "its pull request #2 asked for more: alice asked for changes", "alice: please add a test")
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
			if round <= 2 {
				if got.State != supervisor.TaskTodo || got.Attempt != round+1 || !strings.Contains(strings.Join(got.Notes, "\n"), "please add a test") {
					t.Fatalf("round %d: %+v, want queued again as attempt %d with the feedback", round, got, round+1)
				}
				continue
			}
			if got.State != supervisor.TaskBlocked || !strings.Contains(got.Reason, "after 2 automatic rounds (review_rounds = 2): a person decides") {
				t.Fatalf("after review_rounds: %s %q, want blocked for a person", got.State, got.Reason)
			}
		}
		if _, err := h.st.Tasks.Rework(h.ctx, task.ID, "x", "y"); err == nil {
			t.Fatal("a blocked task was sent back by its pull request")
		}
		// A person requeues it: the pull request has its rounds again.
		if _, err := h.st.Tasks.Requeue(h.ctx, task.ID, "try the other approach"); err != nil {
			t.Fatal(err)
		}
		h.proc()
		if err := h.st.Agent.AgentComplete(h.ctx, h.session(task.ID).ID, "fixed it"); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if got, err := h.st.Tasks.Rework(h.ctx, task.ID, "its pull request #2 asked for more", "bob: one more thing"); err != nil || got.State != supervisor.TaskTodo {
			t.Fatalf("after a person's requeue: %+v %v, want queued again", got, err)
		}
	})
}
