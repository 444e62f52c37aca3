package supervisor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"time"

	"github.com/buildstation/buildstation/supervisor/config"
)

// SharedBoard is a board several stations work at once (supervisor/pgstore).
// Claims on it are leases: a station holds a task and one of its project's
// slots only as long as it keeps renewing, so the work of a machine that
// died is blocked for a person to requeue instead of being silently lost,
// and a station that was presumed dead cannot overwrite the new owner's
// moves. A Board that is not a SharedBoard (SQLite) is this station's alone
// and none of this applies.
type SharedBoard interface {
	Board
	// ClaimLeased is Claim plus a lease: the oldest todo task of project,
	// unless slots unexpired leases of project exist already.
	ClaimLeased(ctx context.Context, project string, slots int, lease time.Duration) (Task, bool, error)
	// Renew extends this station's leases; lost names the tasks whose
	// lease was reaped or taken, each once.
	Renew(ctx context.Context, lease time.Duration) (lost []string, err error)
	// Release gives back the lease on task id without moving the task.
	Release(ctx context.Context, id string) error
	// Reap blocks the tasks of every expired lease, of any station, and
	// returns them.
	Reap(ctx context.Context) ([]Task, error)
	// Station is the name this station acts under on the board.
	Station() string
	// Held lists the tasks this station holds a lease on.
	Held() []string
	// SetSessionState records a change of state of one of this station's
	// live sessions and announces it to the other stations.
	SetSessionState(ctx context.Context, id, state string) error
	// OtherSessions lists the live sessions of the other stations (those
	// whose station still holds its task's lease), with Station set; they
	// carry no console or watchdog clock.
	OtherSessions(ctx context.Context) ([]SessionInfo, error)
}

// shared returns the board as a SharedBoard, when it is one.
func (st *Station) shared() (SharedBoard, bool) {
	sb, ok := st.board.(SharedBoard)
	return sb, ok
}

// claim takes the oldest todo task of p for a new session: a plain claim on
// this station's own board, a leased one on a shared board.
func (st *Station) claim(ctx context.Context, p config.Project) (Task, bool, error) {
	sb, ok := st.shared()
	if !ok {
		return st.board.Claim(ctx, p.Name, "station")
	}
	return sb.ClaimLeased(ctx, p.Name, p.Concurrency, st.Config().Lease)
}

// runsHere reports whether this station runs p's tasks at all. On its own
// board it runs every project. On a shared board it skips a project whose
// stations list leaves it out, and one whose folder is not on this machine
// (config allows that there); the latter is logged once.
func (st *Station) runsHere(p config.Project) bool {
	sb, ok := st.shared()
	if !ok {
		return true
	}
	if !p.RunsHere(sb.Station()) {
		return false
	}
	if _, err := os.Stat(p.Path); errors.Is(err, fs.ErrNotExist) {
		st.mu.Lock()
		first := !st.absent[p.Name]
		st.absent[p.Name] = true
		st.mu.Unlock()
		if first {
			st.log.Info("project folder is not on this machine; other stations run it", "project", p.Name, "path", p.Path)
		}
		return false
	}
	return true
}

// mayReview reports whether this station may start a review of task id: on
// a shared board only the station that holds the task's lease reviews it
// (the lease passes from the coding session to its review).
func (st *Station) mayReview(id string) bool {
	sb, ok := st.shared()
	return !ok || slices.Contains(sb.Held(), id)
}

// recoverable lists the working tasks a restart must settle: on a shared
// board only those this station held; the other stations' are theirs.
func (st *Station) recoverable(ctx context.Context) ([]Task, error) {
	tasks, err := st.board.Tasks(ctx, TaskFilter{State: TaskWorking})
	sb, ok := st.shared()
	if err != nil || !ok {
		return tasks, err
	}
	held := sb.Held()
	return slices.DeleteFunc(tasks, func(t Task) bool { return !slices.Contains(held, t.ID) }), nil
}

// heartbeat keeps a shared board's leases alive every lease/3, so one late
// or failed renewal does not lose them, until ctx ends. Each beat also
// reaps the expired leases of any station: some live station has to block
// a dead one's tasks, and every station does it (pgstore makes it safe).
func (st *Station) heartbeat(ctx context.Context, sb SharedBoard) {
	lease := st.Config().Lease
	tick := time.NewTicker(max(lease/3, time.Millisecond))
	defer tick.Stop()
	for {
		st.beat(ctx, sb, lease)
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// beat renews once, ends the sessions of lost tasks and reaps.
func (st *Station) beat(ctx context.Context, sb SharedBoard, lease time.Duration) {
	lost, err := sb.Renew(ctx, lease)
	if err != nil && ctx.Err() == nil {
		st.log.Error("renew leases", "station", sb.Station(), "err", err)
	}
	for _, id := range lost {
		st.loseTask(id)
	}
	reaped, err := sb.Reap(ctx)
	if err != nil && ctx.Err() == nil {
		st.log.Error("reap leases", "err", err)
	}
	for _, t := range reaped {
		st.log.Warn("task blocked: its station stopped renewing its lease", "task", t.ID, "reason", t.Reason)
		st.publishTask(t)
		st.notify(Notice{Kind: NoticeBlock, TaskID: t.ID, Title: "Blocked: " + t.Title, Body: t.Reason})
	}
	// Reaped tasks free slots; so may another station's Release, which
	// announces nothing: the beat is the scheduler's fallback poll.
	st.poke()
}

// loseTask ends the local session of a task whose lease this station lost.
// It writes nothing to the board: the task is no longer this station's, and
// whoever owns it now owns its transitions.
func (st *Station) loseTask(id string) {
	s := st.sessionForTask(id)
	if s == nil {
		return
	}
	st.log.Warn("lost the lease on a running task; ending its session", "task", id, "session", s.spec.ID)
	st.endLater(s, outEnded)
}

// releaseLease gives back the lease of a settled session's task when the
// task stayed working with nothing left to run it here (a session ended by
// a person, say). A move out of working or review ends the lease already;
// review keeps it for the review session.
func (st *Station) releaseLease(ctx context.Context, s *session) {
	sb, ok := st.shared()
	if !ok || s.spec.Kind != "work" || st.sessionForTask(s.spec.TaskID) != nil {
		return
	}
	t, err := st.board.Task(ctx, s.spec.TaskID)
	// The same attempt, still working: a requeued task claimed again has
	// a new attempt and a lease of its own that must stay.
	if err != nil || t.State != TaskWorking || sessionID(t, "work") != s.spec.ID {
		return
	}
	if err := sb.Release(ctx, t.ID); err != nil {
		st.log.Error("release lease", "task", t.ID, "err", fmt.Errorf("after session %s: %w", s.spec.ID, err))
	}
}

// startHeartbeat runs the heartbeat, and the writer of session states,
// beside Run on a shared board; Run's wait for its goroutines covers them.
func (st *Station) startHeartbeat(ctx context.Context) {
	sb, ok := st.shared()
	if !ok {
		return
	}
	st.wg.Add(2)
	go func() {
		defer st.wg.Done()
		st.heartbeat(ctx, sb)
	}()
	go func() {
		defer st.wg.Done()
		st.writeStates(ctx, sb)
	}()
}

// Wake asks the scheduler to look for work now. A shared board's change
// notifications call it: a task added at another station, or a slot freed
// there, is not announced here otherwise. It never blocks.
func (st *Station) Wake() { st.poke() }
