package station

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/buildstation/buildstation/internal/goroutines"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// A task's work lives in one station's worktree. On a shared board another
// station may take the task up after a requeue, so a project with a git
// remote carries the task's branches there (Workspaces.Publish): at each
// green commit, whenever a session ends and on every requeue; and the
// station that takes the task fetches them before its session starts
// (Workspaces.Sync). Without a remote, or while a push has not landed, the
// task is pinned to the station that holds its work (Pinner): no other
// station claims it.

// pushTimeout bounds one push of a task's branches: a remote that does not
// answer must not hold a requeue for long, nor leave pushes running
// forever. fetchTimeout bounds a fetch, which the scheduler waits for
// before a session starts.
const (
	pushTimeout  = 2 * time.Minute
	fetchTimeout = 30 * time.Second
)

// progressPrefix starts the why of an agent's progress report.
const progressPrefix = "progress: "

// branches carries a task's work between stations: it pushes the task's
// branches to its project's remote (at most one push per task at a time;
// a push asked for meanwhile runs once more after it, so the newest work
// always goes), fetches them where the task starts next, and pins the task
// to this station while its work is only here.
type branches struct {
	ws      supervisor.Workspaces // nil: no worktrees, nothing to carry
	pinner  supervisor.Pinner     // nil: the board does not pin
	reg     *registry
	log     *slog.Logger
	station func() string        // this station's name on a shared board; "" on its own
	timeout func() time.Duration // how long one board write may take
	// life and work are the station's (owner.go): pushes and the cache
	// reads before them run as its background work, which a stop waits
	// for, each within its own timeout.
	life context.Context
	work *goroutines.Group

	mu      sync.Mutex
	running map[string]bool
	again   map[string]pushReq
	failed  map[string]string // task → why its last push failed, for status
}

func newBranches(ws supervisor.Workspaces, board supervisor.Board, reg *registry, log *slog.Logger, station func() string, timeout func() time.Duration,
	life context.Context, work *goroutines.Group) *branches {
	pn, _ := board.(supervisor.Pinner)
	return &branches{ws: ws, pinner: pn, reg: reg, log: log, station: station, timeout: timeout, life: life, work: work,
		running: map[string]bool{}, again: map[string]pushReq{}, failed: map[string]string{}}
}

// pushReq is one push asked for: settle lifts the task's pin when the
// push leaves nothing of it only here (no session runs to add more).
type pushReq struct {
	p      config.Project
	why    string
	settle bool
}

// pushBranches pushes task's branches in the background: it never blocks
// the caller, which may be a session's goroutine. A failure is logged and
// shown in status; the work stays safe here, and the task pinned here.
func (b *branches) push(p config.Project, taskID, why string, settle bool) {
	if b.ws == nil {
		return
	}
	req := pushReq{p: p, why: why, settle: settle}
	b.mu.Lock()
	if b.running[taskID] {
		prev := b.again[taskID]
		req.settle = req.settle || prev.settle
		b.again[taskID] = req
		b.mu.Unlock()
		return
	}
	b.running[taskID] = true
	b.mu.Unlock()
	started := b.work.Go(func() {
		for {
			ctx, cancel := context.WithTimeout(b.life, pushTimeout)
			pub, err := b.ws.Publish(ctx, req.p.Repo, taskID)
			cancel()
			b.pushed(taskID, req, pub, err)
			b.mu.Lock()
			next, more := b.again[taskID]
			delete(b.again, taskID)
			if !more {
				delete(b.running, taskID)
				b.mu.Unlock()
				return
			}
			b.mu.Unlock()
			req = next
		}
	})
	if !started {
		// The station has stopped: the work stays here, and so does the
		// task's pin, until the next start pushes it.
		b.mu.Lock()
		delete(b.running, taskID)
		b.mu.Unlock()
		b.log.Warn("the station stopped before pushing the task's branches", "task", taskID, "when", why)
	}
}

// pushed records how a push went: a failure pins the task here; a settling
// push that left nothing behind lifts this station's pin.
func (b *branches) pushed(taskID string, req pushReq, pub supervisor.Published, err error) {
	if err == nil && pub.Remote == "" {
		return // no remote: the pin set at start stays
	}
	// Its own deadline: the push's may be what ran out.
	ctx, cancel := context.WithTimeout(b.life, b.timeout())
	defer cancel()
	b.mu.Lock()
	if err != nil {
		b.failed[taskID] = fmt.Sprintf("task %s: %v; its work is safe on this station, which keeps the task until a push succeeds", taskID, err)
	} else {
		delete(b.failed, taskID)
	}
	b.mu.Unlock()
	if err != nil {
		b.log.Warn("cannot push the task's branches", "task", taskID, "when", req.why, "err", err)
		b.pin(ctx, taskID)
		return
	}
	if len(pub.Pushed) > 0 {
		b.log.Info("pushed the task's branches", "task", taskID, "when", req.why, "remote", pub.Remote, "branches", pub.Pushed)
	}
	if req.settle && pub.Complete && b.reg.forTask(taskID) == nil {
		b.unpin(ctx, taskID)
	}
}

// pushWarnings are the failed pushes, for status.
func (b *branches) warnings() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, w := range b.failed {
		out = append(out, "cannot push "+w)
	}
	slices.Sort(out)
	return out
}

// checkpoint pushes a live session's branches when its HEAD is green (a
// sessionHost method: the session's goroutine calls it on the agent's
// reports).
func (ho *host) checkpoint(spec sessionSpec) {
	if p, ok := ho.st.Config().Project(spec.Project); ok && spec.Branch != "" {
		ho.st.branches.checkpoint(p, spec.TaskID)
	}
}

// checkpoint pushes task's branches when its HEAD is green: no gate
// (every commit is), or the gate's cached verdict passes. It never waits.
func (b *branches) checkpoint(p config.Project, taskID string) {
	if b.ws == nil || p.Remote == "" {
		return
	}
	if p.Gate == "" {
		b.push(p, taskID, "green commit", false)
		return
	}
	b.work.Go(func() {
		ctx, cancel := context.WithTimeout(b.life, 5*time.Second)
		defer cancel()
		v, ran, err := b.ws.HeadGate(ctx, p.Repo, taskID, false)
		if err == nil && ran && v.Passed {
			b.push(p, taskID, "green commit", false)
		}
	})
}

// pin pins task id to this station on a shared board that pins.
func (b *branches) pin(ctx context.Context, id string) {
	pn, ok := b.pinner, b.pinner != nil
	if !ok {
		return
	}
	if err := pn.Pin(ctx, id); err != nil {
		b.log.Warn("pin the task to this station", "task", id, "err", err)
	}
}

// unpin lifts this station's pin of task id.
func (b *branches) unpin(ctx context.Context, id string) {
	pn, ok := b.pinner, b.pinner != nil
	if !ok {
		return
	}
	if err := pn.Unpin(ctx, id, false); err != nil {
		b.log.Warn("unpin the task", "task", id, "err", err)
	}
}

// syncBranches fetches the task's branches from its project's remote
// before a session starts there, and returns the note that tells the
// session it goes on from another station's work, if it does. A fetch that
// fails blocks a task that ran before (its work may be on the remote
// only), with the reason; a new task starts without it.
func (b *branches) sync(ctx context.Context, p config.Project, task supervisor.Task) (note, blocked string) {
	ws := b.ws
	if ws == nil {
		return "", ""
	}
	sctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	s, err := ws.Sync(sctx, p.Repo, task.ID)
	cancel()
	switch {
	case err != nil && s.Remote == "":
		// Not the remote's answer: the project's setup (the error says
		// what to fix).
		return "", fmt.Sprintf("cannot fetch the task's branches: %v", err)
	case err != nil && task.Attempt > 1:
		return "", fmt.Sprintf("cannot fetch the task's branches: %v; its last attempt's work may be on the remote only: requeue it when the remote answers", err)
	case err != nil:
		b.log.Warn("cannot fetch a new task's branches; it starts here without them", "task", task.ID, "err", err)
		return "", ""
	}
	return b.syncNote(ctx, p, task.ID, s), ""
}

// syncNote tells a session whose worktree took another station's work
// where it starts.
func (b *branches) syncNote(ctx context.Context, p config.Project, taskID string, s supervisor.Synced) string {
	if !s.Fetched {
		return ""
	}
	what := "the commit"
	if p.Gate == "" {
		what = "the last green commit"
	} else if v, ran, err := b.ws.HeadGate(ctx, p.Repo, taskID, false); err == nil && ran && v.Passed && v.SHA == s.From {
		what = "the last green commit"
	}
	here := "this station"
	if name := b.station(); name != "" {
		here = "station " + name
	}
	note := fmt.Sprintf("This attempt runs on %s, which fetched the task's branch from the remote %s: your worktree starts at %s %s %q that the station before pushed there.",
		here, s.Remote, what, supervisor.ShortSHA(s.From), s.FromSubject)
	if s.Saved != "" {
		note += fmt.Sprintf(" The older work this station had on the task is on branch %s.", s.Saved)
	}
	return note
}

// requeuePinned says why a requeue here of a task pinned to another
// station is refused, or nil.
func (b *branches) requeuePinned(t supervisor.Task, anywhere bool) error {
	name := b.station()
	if t.Pinned == "" || t.Pinned == name || anywhere {
		return nil
	}
	return supervisor.Conflictf("task %s is pinned to station %s: its work is only there; requeue it at that station, "+
		"or with --anywhere to let any station start it again from what the remote holds (or its base) if %s is gone for good",
		t.ID, t.Pinned, t.Pinned)
}

// liftPin lifts whoever's pin of t, for a requeue with anywhere.
func (b *branches) liftPin(ctx context.Context, t supervisor.Task) error {
	pn, ok := b.pinner, b.pinner != nil
	if !ok || t.Pinned == "" {
		return nil
	}
	if err := pn.Unpin(ctx, t.ID, true); err != nil {
		if errors.Is(err, supervisor.ErrUnreachable) {
			return fmt.Errorf("requeue task %s: the board does not answer; try again: %w", t.ID, err)
		}
		return fmt.Errorf("requeue task %s: lift its pin: %w", t.ID, err)
	}
	return nil
}
