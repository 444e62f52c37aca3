package station

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// Shared is the station's part on a shared board: claims and leases, the
// fence, other stations' sessions and tasks, the board's reachability.
type Shared struct{ st *Station }

// shared returns the board as a SharedBoard, when it is one.
func (sh *Shared) shared() (supervisor.SharedBoard, bool) {
	sb, ok := sh.st.board.(supervisor.SharedBoard)
	return sb, ok
}

// claim takes the oldest todo task of p for a new session: a plain claim on
// this station's own board, a leased one on a shared board.
func (sh *Shared) claim(ctx context.Context, p config.Project) (supervisor.Task, bool, error) {
	sb, ok := sh.shared()
	if !ok {
		return sh.st.board.Claim(ctx, p.Name, "station")
	}
	sent := time.Now()
	t, ok, err := sb.ClaimLeased(ctx, p.Name, p.Concurrency, sh.st.Config().Lease)
	if ok {
		sh.st.leases.claimedAt(t.ID, sent)
		// The new session runs under the board's windows as they are now.
		sh.refreshWindows(ctx)
	}
	return t, ok, err
}

// runsHere reports whether this station runs p's tasks at all. On its own
// board it runs every project. On a shared board it skips a project whose
// stations list leaves it out, and one whose folder is not on this machine
// (config allows that there: missing says so).
func (sh *Shared) runsHere(p config.Project) (runs, missing bool) {
	sb, ok := sh.shared()
	if !ok {
		return true, false
	}
	if !p.RunsHere(sb.Station()) {
		return false, false
	}
	if sh.st.files.Missing(p.Path) {
		return false, true
	}
	return true, false
}

// mayReview reports whether this station may start a review of task id: on
// a shared board only the station that holds the task's lease reviews it
// (the lease passes from the coding session to its review).
func (sh *Shared) mayReview(id string) bool {
	sb, ok := sh.shared()
	return !ok || slices.Contains(sb.Held(), id)
}

// recoverable lists the working tasks a restart must settle: on a shared
// board only those this station held; the other stations' are theirs.
func (sh *Shared) recoverable(ctx context.Context) ([]supervisor.Task, error) {
	tasks, err := sh.st.board.Tasks(ctx, supervisor.TaskFilter{State: supervisor.TaskWorking})
	sb, ok := sh.shared()
	if err != nil || !ok {
		return tasks, err
	}
	held := sb.Held()
	return slices.DeleteFunc(tasks, func(t supervisor.Task) bool { return !slices.Contains(held, t.ID) }), nil
}

// settleFenced settles the task of a session the fence ended: a work
// session's task goes back to todo, its next attempt resuming from what
// the worktree holds; a review's is blocked for a person. The write is
// fenced by the lease's epoch: if the lease was reaped or let again, the
// board refuses it, and the new owner's record stands. It is for this
// session's run of the task alone (Move.Attempt): a task requeued by a
// person meanwhile, and claimed again by this very station under a new
// lease, must not be requeued once more from under its new session.
func (sh *Shared) settleFenced(ctx context.Context, s *session) {
	name := sh.st.host.stationName()
	m := supervisor.Move{From: []supervisor.TaskState{supervisor.TaskWorking}, To: supervisor.TaskTodo, BumpAttempt: true, Actor: "station", Attempt: s.spec.Attempt,
		Note: fmt.Sprintf("Station %s lost touch with the board and stopped this session before its lease could run out; "+
			"the worktree on that station holds the work so far.", name)}
	if s.spec.Kind == supervisor.KindReview {
		m = supervisor.Move{From: []supervisor.TaskState{supervisor.TaskReview}, To: supervisor.TaskBlocked, Actor: "station", Attempt: s.spec.Attempt,
			Reason: fmt.Sprintf("station %s lost touch with the board and stopped the review; requeue the task to review it again", name)}
	}
	t, queued, err := sh.st.writes.move(ctx, s.spec.TaskID, m)
	switch {
	case err != nil && errors.Is(err, supervisor.ErrConflict):
		sh.st.log.Info("fenced task was settled elsewhere", "task", s.spec.TaskID, "err", err)
	case err != nil:
		sh.st.log.Error("settle fenced task", "task", s.spec.TaskID, "err", err)
	case queued:
		sh.st.log.Warn("fenced task's requeue queued for the board", "task", s.spec.TaskID)
	default:
		sh.st.host.publishTask(t)
	}
}

// releaseLease gives back the lease of a settled session's task, now that
// its agent is gone: a task that moved on while the session was being
// ended (completed, blocked, cancelled) kept it till now, so its slot was
// not free while the agent still ran; a task that stayed working with
// nothing left to run it here (a session ended by a person) gives it up
// too. A work session's task now in review keeps it for its review, and a
// requeued task claimed again keeps its new lease. When the board cannot
// say how the task stands, the lease is given back all the same (queued if
// need be): a held lease with no session would strand its slot.
func (sh *Shared) releaseLease(ctx context.Context, s *session) {
	sb, ok := sh.shared()
	if !ok || sh.st.sessionForTask(s.spec.TaskID) != nil || !slices.Contains(sb.Held(), s.spec.TaskID) {
		return
	}
	rctx, cancel := context.WithTimeout(ctx, sh.st.host.writeTimeout())
	t, err := sh.st.board.Task(rctx, s.spec.TaskID)
	cancel()
	switch {
	case err != nil && !unreachable(err):
		return
	case err != nil:
	case t.State == supervisor.TaskReview && s.spec.Kind == supervisor.KindWork:
		return
	case t.State == supervisor.TaskWorking && sessionID(t, supervisor.KindWork) != s.spec.ID:
		return
	}
	if err := sh.st.writes.releaseTask(ctx, s.spec.TaskID); err != nil {
		sh.st.log.Error("release lease", "task", s.spec.TaskID, "err", fmt.Errorf("after session %s: %w", s.spec.ID, err))
	}
}

// Wake asks the scheduler to look for work now. A shared board's change
// notifications call it: a task added at another station, or a slot freed
// there, is not announced here otherwise. It never blocks.
func (sh *Shared) Wake() { sh.st.poke() }
