package station

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/thejerf/suture/v4"

	"github.com/buildstation/buildstation/supervisor"
)

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

// leases keeps a shared board's leases on this station's tasks: the
// heartbeat renews them (Serve), the fence ends the sessions whose lease it
// can no longer prove (watch), and tasks whose station stopped renewing
// are reaped. A station on its own board has none: its tasks need no
// proof that nobody else runs them.
type leases struct {
	sb    supervisor.SharedBoard
	lease time.Duration
	reg   *registry
	host  leaseHost
	guard supervisor.Guard
	log   *slog.Logger

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
	// gone, once set, is why this process is not the station any more:
	// a newer instance holds its name (supervisor.ErrNameTaken).
	gone error
}

// leaseHost is what the lease protocol asks of the station: what follows a
// renewal (the outbox, the board's windows, the scheduler), what follows a
// failed one, and settling the tasks whose lease went wrong.
type leaseHost interface {
	// boardUp is called after each renewal that succeeded; an error
	// (the outbox could not be delivered) counts as the board down.
	boardUp(ctx context.Context, sb supervisor.SharedBoard) error
	boardDown(sb supervisor.SharedBoard, err error)
	// endFenced ends a session whose lease is lost or cannot be proven.
	endFenced(s *session)
	// settleOrphan settles task id, whose lease this station held with no
	// session here to run it.
	settleOrphan(ctx context.Context, sb supervisor.SharedBoard, id string)
	// reaped tells about a task blocked because its station stopped
	// renewing its lease.
	reaped(t supervisor.Task)
	poke()
}

func newLeases(sb supervisor.SharedBoard, lease time.Duration, reg *registry, host leaseHost, guard supervisor.Guard, log *slog.Logger) *leases {
	return &leases{sb: sb, lease: lease, reg: reg, host: host, guard: guard, log: log,
		claimed: map[string]time.Time{}, fenced: map[string]bool{}}
}

func (l *leases) String() string { return "leases" }

// Serve is the heartbeat: it renews the leases every lease/3, so one late
// or failed renewal does not lose them, until ctx ends. Each beat also
// replays the outbox, settles leases no session holds, and reaps the
// expired leases of any station: some live station has to block a dead
// one's tasks, and every station does it (pgstore makes it safe).
func (l *leases) Serve(ctx context.Context) error {
	tick := time.NewTicker(max(l.lease/3, time.Millisecond))
	defer tick.Stop()
	for {
		l.beat(ctx)
		if err := l.goneErr(); err != nil {
			// Not this station any more: the whole tree stops, and Run
			// returns err once the sessions are ended.
			return fmt.Errorf("%w: %w", suture.ErrTerminateSupervisorTree, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// beat renews once, ends the sessions of lost tasks, then has the station
// deliver what it queued, and reconciles and reaps.
func (l *leases) beat(ctx context.Context) {
	sent, sentWall := time.Now(), time.Now().Round(0)
	rctx, cancel := context.WithTimeout(ctx, max(l.lease/3, time.Millisecond))
	lost, err := l.sb.Renew(rctx, l.lease)
	cancel()
	if errors.Is(err, supervisor.ErrNameTaken) {
		l.nameTaken(err)
		return
	}
	if err != nil {
		if ctx.Err() == nil {
			l.mu.Lock()
			l.failedAt = time.Now()
			l.mu.Unlock()
			l.host.boardDown(l.sb, err)
		}
		return
	}
	l.mu.Lock()
	l.proven, l.provenWall = sent, sentWall
	failedAt := l.failedAt
	l.mu.Unlock()
	if l.guard != nil {
		keep := l.lease - fenceMargin(l.lease)
		l.guard.Deadline(time.Until(sent.Add(keep)), sentWall.Add(keep))
	}
	for _, id := range lost {
		l.lose(id)
	}
	if err := l.host.boardUp(ctx, l.sb); err != nil {
		return
	}
	l.reconcile(ctx)
	l.reap(ctx, failedAt)
	// Reaped tasks free slots; so may another station's Release, which
	// announces nothing: the beat is the scheduler's fallback poll.
	l.host.poke()
}

// nameTaken ends every session of this process the fenced way and marks
// it gone: a newer instance of its name holds its leases (it was paused,
// suspended or cut off for longer than the lease), so the sessions here run
// work that is not this process's any more, and nothing it writes would be
// taken by the board.
func (l *leases) nameTaken(err error) {
	gone := fmt.Errorf("%w; this process ended its own sessions and stops, and the newer instance runs the name's work (start this one again under its own name if it should run too)", err)
	l.mu.Lock()
	first := l.gone == nil
	l.gone = gone
	var ends []*session
	for _, s := range l.reg.live() {
		if !l.fenced[s.spec.ID] {
			l.fenced[s.spec.ID] = true
			ends = append(ends, s)
		}
	}
	l.mu.Unlock()
	if first {
		l.log.Error(gone.Error())
	}
	for _, s := range ends {
		l.host.endFenced(s)
	}
}

// goneErr is why this process is not the station any more, or nil.
func (l *leases) goneErr() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.gone
}

// reap blocks the tasks of stations that stopped renewing their leases,
// unless this station itself failed to renew within the grace: then it
// cannot tell their silence from its own.
func (l *leases) reap(ctx context.Context, failedAt time.Time) {
	grace := reapGrace(l.lease)
	if !failedAt.IsZero() && time.Since(failedAt) < grace {
		return
	}
	reaped, err := l.sb.Reap(ctx, grace)
	if err != nil && ctx.Err() == nil {
		l.log.Error("reap leases", "err", err)
	}
	for _, t := range reaped {
		l.host.reaped(t)
	}
}

// watch is the fence: it ends every session whose lease this station can
// no longer prove before the lease could run out, until ctx ends. It
// checks often, by the monotonic clock and by the wall clock both: a
// machine that slept (a monotonic clock that stood still) must not wake up
// believing.
func (l *leases) watch(ctx context.Context) error {
	tick := time.NewTicker(min(max(l.lease/20, 10*time.Millisecond), 250*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
		l.check(time.Now())
	}
}

// check ends the sessions whose proof has run out at now.
func (l *leases) check(now time.Time) {
	keep := l.lease - fenceMargin(l.lease)
	l.mu.Lock()
	proven, provenWall := l.proven, l.provenWall
	wallLate := !provenWall.IsZero() && now.Round(0).Sub(provenWall) > keep
	var ends []*session
	for _, s := range l.reg.live() {
		if l.fenced[s.spec.ID] {
			continue
		}
		from := proven
		if c, ok := l.claimed[s.spec.TaskID]; ok && c.After(from) {
			from = c
		}
		if from.IsZero() || now.Sub(from) > keep || wallLate && from == proven {
			l.fenced[s.spec.ID] = true
			ends = append(ends, s)
		}
	}
	l.mu.Unlock()
	for _, s := range ends {
		l.log.Warn("cannot prove the task's lease before it runs out; ending its session so no other station runs it twice",
			"task", s.spec.TaskID, "session", s.spec.ID, "proven_ago", now.Sub(proven).Round(time.Millisecond))
		l.host.endFenced(s)
	}
}

// claimedAt records when a claim proved task id's new lease.
func (l *leases) claimedAt(id string, at time.Time) {
	l.mu.Lock()
	l.claimed[id] = at
	l.mu.Unlock()
}

// ended forgets a session that has ended.
func (l *leases) ended(sessionID string) {
	l.mu.Lock()
	delete(l.fenced, sessionID)
	l.mu.Unlock()
}

// lose ends the local session of a task whose lease this station lost.
// Its task is settled as a fenced session's is: the board takes that only
// if nobody else was let the task meanwhile.
func (l *leases) lose(id string) {
	s := l.reg.forTask(id)
	if s == nil {
		return
	}
	l.mu.Lock()
	already := l.fenced[s.spec.ID]
	l.fenced[s.spec.ID] = true
	l.mu.Unlock()
	if already {
		return
	}
	l.log.Warn("lost the lease on a running task; ending its session", "task", id, "session", s.spec.ID)
	l.host.endFenced(s)
}

// reconcile settles the leases this station holds with no session here to
// run them, twice running (a claim is held a moment before its session
// registers).
func (l *leases) reconcile(ctx context.Context) {
	held := l.sb.Held()
	starting := l.reg.startingNow()
	now := map[string]bool{}
	for _, id := range held {
		if l.reg.forTask(id) == nil && !starting[id] {
			now[id] = true
		}
	}
	l.mu.Lock()
	prev := l.orphans
	l.orphans = now
	l.mu.Unlock()
	for id := range now {
		if prev[id] {
			l.host.settleOrphan(ctx, l.sb, id)
		}
	}
}

// settleOrphan settles a lease this station holds with no session here: a
// working task goes back to todo, anything else just gives its lease back.
// A review waiting for its session to start is left to the scheduler.
func (sh *Shared) settleOrphan(ctx context.Context, sb supervisor.SharedBoard, id string) {
	t, err := sh.st.board.Task(ctx, id)
	if err != nil {
		return
	}
	switch t.State {
	case supervisor.TaskReview:
		if p, ok := sh.st.Config().Project(t.Project); ok && p.Review {
			return
		}
		err = sh.st.writes.releaseTask(ctx, id)
	case supervisor.TaskWorking:
		sh.st.log.Warn("a lease no session holds; requeueing its task", "task", id)
		_, _, err = sh.st.writes.move(ctx, id, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskWorking}, To: supervisor.TaskTodo, BumpAttempt: true, Actor: "station",
			Note: fmt.Sprintf("Station %s held this task's lease with no session running it (lost in an outage); requeued.", sb.Station())})
	default:
		err = sh.st.writes.releaseTask(ctx, id)
	}
	if err != nil {
		sh.st.log.Warn("settle a lease no session holds", "task", id, "err", err)
	}
}

// boardUp follows a renewal: the link is up again, the outbox is
// delivered, the board's windows are read.
func (sh *Shared) boardUp(ctx context.Context, sb supervisor.SharedBoard) error {
	if !sh.Link().Reachable {
		sh.st.log.Info("board reachable again", "station", sb.Station())
		sh.st.writes.link.up()
		sh.st.writes.publish()
	}
	if err := sh.st.writes.replay(ctx); err != nil && ctx.Err() == nil {
		sh.st.writes.link.down(err)
		sh.st.writes.publish()
		return err
	}
	sh.st.writes.publish()
	sh.refreshWindows(ctx)
	return nil
}

// boardDown notes a renewal that did not reach the board: the link goes
// down (logged once, not every beat).
func (sh *Shared) boardDown(sb supervisor.SharedBoard, err error) {
	first := sh.Link().Reachable
	sh.st.writes.link.down(err)
	if first {
		sh.st.log.Error("board unreachable; retrying", "station", sb.Station(), "err", err)
	}
	sh.st.writes.publish()
}

// endFenced ends a session whose lease is lost or cannot be proven.
func (sh *Shared) endFenced(s *session) { sh.st.Agent.endLater(s, outFenced) }

// reaped tells about a task the reaper blocked.
func (sh *Shared) reaped(t supervisor.Task) {
	sh.st.log.Warn("task blocked: its station stopped renewing its lease", "task", t.ID, "reason", t.Reason)
	sh.st.host.publishTask(t)
	sh.st.host.notify(supervisor.Notice{Kind: supervisor.NoticeBlock, TaskID: t.ID, Title: "Blocked: " + t.Title, Body: t.Reason})
}
