package station

import (
	"context"
	"strings"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// startReviews starts a review session for each task waiting in review on a
// project that asks for reviews, within the same slots as coding. A review
// whose session was lost (a restart) simply runs again: it changes nothing.
func (st *Station) startReviews(ctx context.Context, p config.Project, free func() bool) {
	tasks, err := st.board.Tasks(ctx, supervisor.TaskFilter{State: supervisor.TaskReview, Project: p.Name})
	if err != nil {
		st.log.Error("schedule: list reviews", "project", p.Name, "err", err)
		return
	}
	for _, t := range tasks {
		if !free() {
			return
		}
		if st.sessionForTask(t.ID) != nil || !st.mayReview(t.ID) {
			continue
		}
		st.start(ctx, p, t, supervisor.KindReview)
	}
}

// AgentReview settles a review: approve → done; changes → back to todo for
// another round (attempt + 1) with the reviewer's notes on the task.
func (st *Station) AgentReview(ctx context.Context, id, verdict, notes string) error {
	s, err := st.agentSession(id)
	if err != nil {
		return err
	}
	if s.spec.Kind != supervisor.KindReview {
		return supervisor.Invalidf("session %s is not a review; finish coding with complete_task", id)
	}
	notes = strings.TrimSpace(notes)
	var m supervisor.Move
	switch verdict {
	case supervisor.VerdictApprove:
		if err := st.refuseRed(ctx, s, "complete_review"); err != nil {
			return err
		}
		m = supervisor.Move{From: []supervisor.TaskState{supervisor.TaskReview}, To: supervisor.TaskDone, Actor: "reviewer", KeepLease: true}
		if notes != "" {
			m.Note = "review approved: " + notes
		}
	case supervisor.VerdictChanges:
		if notes == "" {
			return supervisor.Invalidf("a review asking for changes needs notes saying what must change")
		}
		m = supervisor.Move{From: []supervisor.TaskState{supervisor.TaskReview}, To: supervisor.TaskTodo, BumpAttempt: true, Actor: "reviewer", KeepLease: true,
			Note: "review asked for changes: " + notes}
	default:
		return supervisor.Invalidf("unknown verdict %q; use approve or changes", verdict)
	}
	m.Attempt = s.spec.Attempt
	t, err := st.board.Move(ctx, s.spec.TaskID, m)
	if err != nil {
		return st.agentMoveErr(s, err)
	}
	st.publishTask(t)
	st.endLater(s, outEnded)
	return nil
}
