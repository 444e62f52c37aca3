package station

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// shared returns the board as a SharedBoard, when it is one.
func (st *Station) shared() (supervisor.SharedBoard, bool) {
	sb, ok := st.board.(supervisor.SharedBoard)
	return sb, ok
}

// claim takes the oldest todo task of p for a new session: a plain claim on
// this station's own board, a leased one on a shared board.
func (st *Station) claim(ctx context.Context, p config.Project) (supervisor.Task, bool, error) {
	sb, ok := st.shared()
	if !ok {
		return st.board.Claim(ctx, p.Name, "station")
	}
	sent := time.Now()
	t, ok, err := sb.ClaimLeased(ctx, p.Name, p.Concurrency, st.Config().Lease)
	if ok {
		st.claimedAt(t.ID, sent)
		// The new session runs under the board's windows as they are now.
		st.refreshWindows(ctx)
	}
	return t, ok, err
}

// runsHere reports whether this station runs p's tasks at all. On its own
// board it runs every project. On a shared board it skips a project whose
// stations list leaves it out, and one whose folder is not on this machine
// (config allows that there: missing says so).
func (st *Station) runsHere(p config.Project) (runs, missing bool) {
	sb, ok := st.shared()
	if !ok {
		return true, false
	}
	if !p.RunsHere(sb.Station()) {
		return false, false
	}
	if st.files.Missing(p.Path) {
		return false, true
	}
	return true, false
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
func (st *Station) recoverable(ctx context.Context) ([]supervisor.Task, error) {
	tasks, err := st.board.Tasks(ctx, supervisor.TaskFilter{State: supervisor.TaskWorking})
	sb, ok := st.shared()
	if err != nil || !ok {
		return tasks, err
	}
	held := sb.Held()
	return slices.DeleteFunc(tasks, func(t supervisor.Task) bool { return !slices.Contains(held, t.ID) }), nil
}

// Leases and time. A station renews its leases every lease/3. Each
// renewal that succeeds proves the leases good until at least the moment
// the renewal was sent plus lease, by the database's clock (the server sets
// expires_at from its own clock after it received the request), so the
// station counts from the moment it sent it, on its own monotonic clock,
// and needs no agreement between clocks, only that they run at one rate.
// When that proof runs out within fenceMargin, the station ends its
// sessions itself (it self-fences): by the time another station could be
// let the task, its agent is gone. A lease that expired is never renewed;
// the reaper ends it only reapGrace after it expired, and only once the
// reaper itself has renewed without fail for reapGrace: a board outage
// looks to every station like the others' deaths.

// fenceMargin is how long before its proof runs out a station ends its
// sessions: time to end an agent's process tree.
func fenceMargin(lease time.Duration) time.Duration { return lease / 4 }

// reapGrace is the time between a lease's expiry and its reaping, and the
// time a station must have renewed without fail before it reaps: a station
// cut off for up to lease + reapGrace comes back to its tasks as it left
// them, and delivers what it queued meanwhile.
func reapGrace(lease time.Duration) time.Duration { return 2 * lease }

// fence is the heartbeat's proof of this station's leases.
type fence struct {
	mu sync.Mutex
	// proven is when the newest renewal that succeeded was sent
	// (monotonic and wall readings); claimed is when each task's lease
	// was claimed, which proves that lease alone.
	proven     time.Time
	provenWall time.Time
	claimed    map[string]time.Time
	// failedAt is when the last renewal failed; zero before any did.
	failedAt time.Time
	// fenced are the sessions ended by the fence, so each is ended once.
	fenced map[string]bool
	// orphans are held leases seen with no session here, by task, at
	// the last beat: seen so twice running, they are settled.
	orphans map[string]bool
}

// heartbeat keeps a shared board's leases alive every lease/3, so one late
// or failed renewal does not lose them, until ctx ends. Each beat also
// replays the outbox, settles leases no session holds, and reaps the
// expired leases of any station: some live station has to block a dead
// one's tasks, and every station does it (pgstore makes it safe).
func (st *Station) heartbeat(ctx context.Context, sb supervisor.SharedBoard) {
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

// beat renews once, ends the sessions of lost tasks, replays what the
// outbox holds, reconciles and reaps.
func (st *Station) beat(ctx context.Context, sb supervisor.SharedBoard, lease time.Duration) {
	sent, sentWall := time.Now(), time.Now().Round(0)
	rctx, cancel := context.WithTimeout(ctx, max(lease/3, time.Millisecond))
	lost, err := sb.Renew(rctx, lease)
	cancel()
	if err != nil {
		if ctx.Err() == nil {
			st.renewFailed(sb, err)
		}
		return
	}
	st.fence.mu.Lock()
	st.fence.proven, st.fence.provenWall = sent, sentWall
	failedAt := st.fence.failedAt
	st.fence.mu.Unlock()
	if g := st.opt.Guard; g != nil {
		keep := lease - fenceMargin(lease)
		g.Deadline(time.Until(sent.Add(keep)), sentWall.Add(keep))
	}
	if !st.Link().Reachable {
		st.log.Info("board reachable again", "station", sb.Station())
		st.link.up()
		st.publishLink()
	}
	for _, id := range lost {
		st.loseTask(id)
	}
	if err := st.replay(ctx, sb); err != nil && ctx.Err() == nil {
		st.link.down(err)
		st.publishLink()
		return
	}
	st.publishLink()
	st.refreshWindows(ctx)
	st.reconcile(ctx, sb)
	st.reap(ctx, sb, lease, failedAt)
	// Reaped tasks free slots; so may another station's Release, which
	// announces nothing: the beat is the scheduler's fallback poll.
	st.poke()
}

// renewFailed notes a renewal that did not reach the board: the fence
// counts from now, and the link goes down (logged once, not every beat).
func (st *Station) renewFailed(sb supervisor.SharedBoard, err error) {
	st.fence.mu.Lock()
	st.fence.failedAt = time.Now()
	st.fence.mu.Unlock()
	first := st.Link().Reachable
	st.link.down(err)
	if first {
		st.log.Error("board unreachable; retrying", "station", sb.Station(), "err", err)
	}
	st.publishLink()
}

// reap blocks the tasks of stations that stopped renewing their leases,
// unless this station itself failed to renew within the grace: then it
// cannot tell their silence from its own.
func (st *Station) reap(ctx context.Context, sb supervisor.SharedBoard, lease time.Duration, failedAt time.Time) {
	grace := reapGrace(lease)
	if !failedAt.IsZero() && time.Since(failedAt) < grace {
		return
	}
	reaped, err := sb.Reap(ctx, grace)
	if err != nil && ctx.Err() == nil {
		st.log.Error("reap leases", "err", err)
	}
	for _, t := range reaped {
		st.log.Warn("task blocked: its station stopped renewing its lease", "task", t.ID, "reason", t.Reason)
		st.publishTask(t)
		st.notify(supervisor.Notice{Kind: supervisor.NoticeBlock, TaskID: t.ID, Title: "Blocked: " + t.Title, Body: t.Reason})
	}
}

// watchFence ends every session whose lease this station can no longer
// prove before the lease could run out, until ctx ends. It checks often,
// by the monotonic clock and by the wall clock both: a machine that slept
// (a monotonic clock that stood still) must not wake up believing.
func (st *Station) watchFence(ctx context.Context, lease time.Duration) {
	tick := time.NewTicker(min(max(lease/20, 10*time.Millisecond), 250*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		st.checkFence(lease, time.Now())
	}
}

// checkFence ends the sessions whose proof has run out at now.
func (st *Station) checkFence(lease time.Duration, now time.Time) {
	keep := lease - fenceMargin(lease)
	st.fence.mu.Lock()
	proven, provenWall := st.fence.proven, st.fence.provenWall
	wallLate := !provenWall.IsZero() && now.Round(0).Sub(provenWall) > keep
	var ends []*session
	for _, s := range st.liveSessions() {
		if st.fence.fenced[s.spec.ID] {
			continue
		}
		from := proven
		if c, ok := st.fence.claimed[s.spec.TaskID]; ok && c.After(from) {
			from = c
		}
		if from.IsZero() || now.Sub(from) > keep || wallLate && from == proven {
			st.fence.fenced[s.spec.ID] = true
			ends = append(ends, s)
		}
	}
	st.fence.mu.Unlock()
	for _, s := range ends {
		st.log.Warn("cannot prove the task's lease before it runs out; ending its session so no other station runs it twice",
			"task", s.spec.TaskID, "session", s.spec.ID, "proven_ago", now.Sub(proven).Round(time.Millisecond))
		st.endLater(s, outFenced)
	}
}

// claimed records when a claim proved task id's new lease.
func (st *Station) claimedAt(id string, at time.Time) {
	st.fence.mu.Lock()
	st.fence.claimed[id] = at
	st.fence.mu.Unlock()
}

// loseTask ends the local session of a task whose lease this station lost.
// Its task is settled as a fenced session's is: the board takes that only
// if nobody else was let the task meanwhile.
func (st *Station) loseTask(id string) {
	s := st.sessionForTask(id)
	if s == nil {
		return
	}
	st.fence.mu.Lock()
	already := st.fence.fenced[s.spec.ID]
	st.fence.fenced[s.spec.ID] = true
	st.fence.mu.Unlock()
	if already {
		return
	}
	st.log.Warn("lost the lease on a running task; ending its session", "task", id, "session", s.spec.ID)
	st.endLater(s, outFenced)
}

// settleFenced settles the task of a session the fence ended: a work
// session's task goes back to todo, its next attempt resuming from what
// the worktree holds; a review's is blocked for a person. The write is
// fenced by the lease's epoch: if the lease was reaped or let again, the
// board refuses it, and the new owner's record stands. It is for this
// session's run of the task alone (Move.Attempt): a task requeued by a
// person meanwhile, and claimed again by this very station under a new
// lease, must not be requeued once more from under its new session.
func (st *Station) settleFenced(ctx context.Context, s *session) {
	name := st.stationName()
	m := supervisor.Move{From: []supervisor.TaskState{supervisor.TaskWorking}, To: supervisor.TaskTodo, BumpAttempt: true, Actor: "station", Attempt: s.spec.Attempt,
		Note: fmt.Sprintf("Station %s lost touch with the board and stopped this session before its lease could run out; "+
			"the worktree on that station holds the work so far.", name)}
	if s.spec.Kind == supervisor.KindReview {
		m = supervisor.Move{From: []supervisor.TaskState{supervisor.TaskReview}, To: supervisor.TaskBlocked, Actor: "station", Attempt: s.spec.Attempt,
			Reason: fmt.Sprintf("station %s lost touch with the board and stopped the review; requeue the task to review it again", name)}
	}
	t, queued, err := st.move(ctx, s.spec.TaskID, m)
	switch {
	case err != nil && errors.Is(err, supervisor.ErrConflict):
		st.log.Info("fenced task was settled elsewhere", "task", s.spec.TaskID, "err", err)
	case err != nil:
		st.log.Error("settle fenced task", "task", s.spec.TaskID, "err", err)
	case queued:
		st.log.Warn("fenced task's requeue queued for the board", "task", s.spec.TaskID)
	default:
		st.publishTask(t)
	}
}

// reconcile settles the leases this station holds with no session here to
// run them, twice running (a claim is held a moment before its session
// registers): a working task goes back to todo, anything else just gives
// its lease back. A review waiting for its session to start is left to
// the scheduler.
func (st *Station) reconcile(ctx context.Context, sb supervisor.SharedBoard) {
	held := sb.Held()
	starting := st.reg.startingNow()
	st.fence.mu.Lock()
	prev := st.fence.orphans
	now := map[string]bool{}
	for _, id := range held {
		if st.sessionForTask(id) == nil && !starting[id] {
			now[id] = true
		}
	}
	st.fence.orphans = now
	st.fence.mu.Unlock()
	for id := range now {
		if !prev[id] {
			continue
		}
		t, err := st.board.Task(ctx, id)
		if err != nil {
			continue
		}
		switch t.State {
		case supervisor.TaskReview:
			if p, ok := st.Config().Project(t.Project); ok && p.Review {
				continue
			}
			_ = st.releaseTask(ctx, sb, id)
		case supervisor.TaskWorking:
			st.log.Warn("a lease no session holds; requeueing its task", "task", id)
			_, _, err = st.move(ctx, id, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskWorking}, To: supervisor.TaskTodo, BumpAttempt: true, Actor: "station",
				Note: fmt.Sprintf("Station %s held this task's lease with no session running it (lost in an outage); requeued.", sb.Station())})
		default:
			err = st.releaseTask(ctx, sb, id)
		}
		if err != nil {
			st.log.Warn("settle a lease no session holds", "task", id, "err", err)
		}
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
func (st *Station) releaseLease(ctx context.Context, s *session) {
	sb, ok := st.shared()
	if !ok || st.sessionForTask(s.spec.TaskID) != nil || !slices.Contains(sb.Held(), s.spec.TaskID) {
		return
	}
	rctx, cancel := context.WithTimeout(ctx, st.writeTimeout())
	t, err := st.board.Task(rctx, s.spec.TaskID)
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
	if err := st.releaseTask(ctx, sb, s.spec.TaskID); err != nil {
		st.log.Error("release lease", "task", s.spec.TaskID, "err", fmt.Errorf("after session %s: %w", s.spec.ID, err))
	}
}

// publishLink tells subscribers (trays) how the board link stands, when
// that changed.
func (st *Station) publishLink() {
	l := st.Link()
	if l == nil {
		return
	}
	st.link.mu.Lock()
	key := supervisor.BoardLink{Reachable: l.Reachable, DownSince: l.DownSince, Queued: l.Queued}
	changed := key != st.link.published
	st.link.published = key
	st.link.mu.Unlock()
	if changed {
		st.bus.Publish(supervisor.Event{Kind: supervisor.EventBoard, Board: l})
	}
}

// startHeartbeat runs the heartbeat, and the writer of session states,
// beside Run on a shared board; Run's wait for its goroutines covers them.
func (st *Station) startHeartbeat(ctx context.Context) {
	sb, ok := st.shared()
	if !ok {
		return
	}
	st.wg.Add(3)
	go func() {
		defer st.wg.Done()
		st.heartbeat(ctx, sb)
	}()
	go func() {
		defer st.wg.Done()
		st.watchFence(ctx, st.Config().Lease)
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

// guardNoteName is the file the guard writes into a session's own folder
// before it ends the session.
const guardNoteName = "fenced-by-guard"

// guardNote is the path of a session's guard note.
func (st *Station) guardNote(id string) string {
	path, _ := st.files.SessionFile(id, guardNoteName)
	return path
}

// guardSpawning puts a session under the guard before its agent starts,
// by its marker alone: a station stopped between the agent's start and
// the session's registration must not leave the agent unguarded.
func (st *Station) guardSpawning(id, token string) {
	if st.opt.Guard != nil {
		st.opt.Guard.Watch(id, 0, sessionMarker(token), "", st.guardNote(id))
	}
}

// guardForget takes a session that never started from the guard.
func (st *Station) guardForget(id string) {
	if st.opt.Guard != nil {
		st.opt.Guard.Unwatch(id)
	}
}

// guardWatch puts a live session under the guard.
func (st *Station) guardWatch(s *session) {
	if st.opt.Guard == nil {
		return
	}
	window := ""
	if h, ok := s.proc.(supervisor.Handled); ok {
		window = h.Handle()
	}
	st.opt.Guard.Watch(s.spec.ID, s.proc.Pid(), sessionMarker(s.spec.Token), window, st.guardNote(s.spec.ID))
}

// guardUnwatch takes an ended session from the guard, and reports whether
// the guard had ended it.
func (st *Station) guardUnwatch(s *session) (fenced bool) {
	if st.opt.Guard == nil {
		return false
	}
	st.opt.Guard.Unwatch(s.spec.ID)
	_, fenced = st.files.SessionFile(s.spec.ID, guardNoteName)
	return fenced
}
