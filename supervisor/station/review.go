package station

import (
	"context"
	"fmt"
	"strings"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// startReviews starts a review session for each task waiting in review on a
// project that asks for reviews, within the same slots as coding. A review
// whose session was lost (a restart) simply runs again: it changes nothing.
func (dp *dispatch) startReviews(ctx context.Context, p config.Project, free func() bool) {
	tasks, err := dp.st.board.Tasks(ctx, supervisor.TaskFilter{State: supervisor.TaskReview, Project: p.Name})
	if err != nil {
		dp.st.log.Error("schedule: list reviews", "project", p.Name, "err", err)
		return
	}
	for _, t := range tasks {
		if !free() {
			return
		}
		if dp.st.sessionForTask(t.ID) != nil || !dp.st.Shared.mayReview(t.ID) {
			continue
		}
		dp.st.start(ctx, p, t, supervisor.KindReview)
	}
}

// AgentReview settles a review: approve → done; changes → back to todo for
// another round (attempt + 1) with the reviewer's notes on the task.
func (av *AgentVerbs) AgentReview(ctx context.Context, id, verdict, notes string) error {
	s, err := av.st.Sessions.agentSession(id)
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
		if err := av.st.gates.refuseRed(ctx, s, "complete_review"); err != nil {
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
	t, err := av.st.board.Move(ctx, s.spec.TaskID, m)
	if err != nil {
		return av.agentMoveErr(s, err)
	}
	av.st.host.publishTask(t)
	if t.State == supervisor.TaskDone {
		av.st.host.notify(finishedNotice(t.ID, t.Title, t.Summary, s))
	}
	av.endLater(s, outEnded)
	return nil
}

// pullActor is who moves a task for its pull request (the source
// package's PullActor: the station does not import it).
const pullActor = "pull request"

// Rework sends a done task back to its agent for its pull request: its
// reviewers asked for changes, commented on its lines, or a check failed.
// Like a person's requeue, its worktree is reset to the last green commit
// and the next attempt is told what failed (note), on the same branch, so
// its push lands on the same pull request. After the project's
// review_rounds automatic rounds (since a person last requeued it), the
// task blocks for a person instead, saying why in one sentence. why is
// the history's line.
func (ts *Tasks) Rework(ctx context.Context, id, why, note string) (supervisor.Task, error) {
	cur, err := ts.Task(ctx, id)
	if err != nil {
		return supervisor.Task{}, err
	}
	if cur.State != supervisor.TaskDone {
		return supervisor.Task{}, supervisor.Conflictf("task %s is %s; only a done task's pull request sends it back", id, cur.State)
	}
	p, ok := ts.st.Config().Project(cur.Project)
	if !ok {
		return supervisor.Task{}, supervisor.Invalidf("task %s's project %s is not in config.toml", id, cur.Project)
	}
	h, err := ts.st.board.History(ctx, id)
	if err != nil {
		return supervisor.Task{}, fmt.Errorf("rework task %s: read its history: %w", id, err)
	}
	// The rounds since a person last requeued it: their requeue after the
	// bound gives the pull request its rounds again.
	rounds := 0
	for _, tr := range h {
		switch {
		case tr.From == supervisor.TaskDone && tr.To == supervisor.TaskTodo && tr.Actor == pullActor:
			rounds++
		case tr.From == supervisor.TaskBlocked && tr.To == supervisor.TaskTodo:
			rounds = 0
		}
	}
	if rounds >= p.ReviewRounds {
		reason := fmt.Sprintf("%s, after %d automatic rounds (review_rounds = %d): a person decides — requeue it with a note, or take the pull request from here",
			why, rounds, p.ReviewRounds)
		if p.ReviewRounds == 0 {
			reason = why + "; review_rounds = 0 starts no automatic round: a person decides — requeue it with a note, or take the pull request from here"
		}
		m := supervisor.Move{From: []supervisor.TaskState{supervisor.TaskDone}, To: supervisor.TaskBlocked, Reason: reason, Note: note, Actor: pullActor}
		if !ts.st.blockMove(ctx, id, m, "", "", false) {
			return supervisor.Task{}, supervisor.Conflictf("task %s moved meanwhile", id)
		}
		return ts.Task(ctx, id)
	}
	// Its run finished well: nothing was blocked (a note of the pull
	// request's may be its reason meanwhile).
	done := cur
	done.Reason = ""
	notes, err := ts.st.resume(ctx, done, "")
	if err != nil {
		return supervisor.Task{}, err
	}
	notes = append([]string{strings.TrimSpace(note)}, notes...)
	t, err := ts.st.board.Move(ctx, id, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskDone}, To: supervisor.TaskTodo,
		BumpAttempt: true, Note: strings.Join(notes, "\n\n"), Actor: pullActor,
		Reason: fmt.Sprintf("%s (automatic round %d of %d)", why, rounds+1, p.ReviewRounds)})
	if err != nil {
		return supervisor.Task{}, fmt.Errorf("rework task %s: %w", id, err)
	}
	ts.st.host.publishTask(t)
	ts.st.poke()
	return t, nil
}
