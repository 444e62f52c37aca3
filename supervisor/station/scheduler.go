package station

import (
	"context"
	"log/slog"
	"sync/atomic"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// dispatch is what a scheduler pass asks of the station (schedHost).
type dispatch struct{ st *Station }

// scheduler starts sessions for queued tasks while their projects have
// free slots. It makes one pass each time it is woken (poke): at start,
// when a session ends, when a task is added or requeued or a project
// resumed, when a shared board announces a change, and at each heartbeat.
// Pokes during a pass fold into one more pass, so poke never blocks and
// only the scheduler's goroutine starts sessions: counts read in a pass
// cannot race another starter.
//
// It also keeps what decides whether a project is scheduled at all: the
// projects' circuit breakers, and which projects' folders are missing on
// this machine.
type scheduler struct {
	host    schedHost
	log     *slog.Logger
	wake    chan struct{}
	breaker breaker
	// absent are the projects whose folder is not on this machine, logged
	// once; only the pass touches it, on the scheduler's one goroutine.
	absent map[string]bool
	// draining is set once the station is stopping: no pass starts a
	// session any more, while the running ones finish.
	draining atomic.Bool
}

// schedHost is what a pass asks of the station: the projects, the board's
// paused list and claims, free slots, and starting a session.
type schedHost interface {
	Config() *config.Config
	paused(ctx context.Context) (map[string]string, error)
	// runsHere says whether this station runs p at all, and whether the
	// only reason it does not is that p's folder is missing here.
	runsHere(p config.Project) (runs, missing bool)
	free(ctx context.Context, p config.Project, max int) bool
	claim(ctx context.Context, p config.Project) (supervisor.Task, bool, error)
	start(ctx context.Context, p config.Project, task supervisor.Task, kind supervisor.SessionKind)
	startReviews(ctx context.Context, p config.Project, free func() bool)
	publishTask(t supervisor.Task)
}

func newScheduler(host schedHost, log *slog.Logger) *scheduler {
	return &scheduler{host: host, log: log, wake: make(chan struct{}, 1),
		breaker: breaker{marks: map[string][]blockMark{}}, absent: map[string]bool{}}
}

// Serve makes a pass whenever it is woken, until ctx ends.
func (sc *scheduler) Serve(ctx context.Context) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-sc.wake:
			sc.pass(ctx)
		}
	}
}

func (sc *scheduler) String() string { return "scheduler" }

// poke asks for a pass; it never blocks.
func (sc *scheduler) poke() {
	select {
	case sc.wake <- struct{}{}:
	default:
	}
}

// pass starts review sessions for finished work first, then the oldest
// todo task of each project with a free slot, within max_sessions.
func (sc *scheduler) pass(ctx context.Context) {
	if sc.draining.Load() {
		return
	}
	paused, err := sc.host.paused(ctx)
	if err != nil {
		sc.log.Error("schedule: read paused projects", "err", err)
		return
	}
	cfg := sc.host.Config()
	for _, p := range cfg.Projects {
		if !sc.runsHere(p) {
			continue
		}
		free := func() bool { return sc.host.free(ctx, p, cfg.MaxSessions) }
		if p.Review {
			// Reviews go on in a paused project: they finish work, not start it.
			sc.host.startReviews(ctx, p, free)
		}
		if _, ok := paused[p.Name]; ok {
			continue
		}
		for free() {
			task, ok, err := sc.host.claim(ctx, p)
			if err != nil {
				sc.log.Error("schedule: claim", "project", p.Name, "err", err)
				break
			}
			if !ok {
				break
			}
			sc.host.publishTask(task)
			sc.host.start(ctx, p, task, supervisor.KindWork)
			if sc.pausedNow(ctx, p.Name) {
				// A start that failed frees its slot at once; the
				// breaker may have paused the project over it, and the
				// next claim would block the queue's next task the same
				// way, to the queue's end.
				break
			}
		}
	}
}

// pausedNow says whether project is paused now (read again: a start may
// have tripped its breaker); a failed read counts as paused, so the pass
// claims no more and the next one tries again.
func (sc *scheduler) pausedNow(ctx context.Context, project string) bool {
	paused, err := sc.host.paused(ctx)
	if err != nil {
		sc.log.Error("schedule: read paused projects", "err", err)
		return true
	}
	_, ok := paused[project]
	return ok
}

// runsHere asks the host, and logs a project whose folder is missing once.
func (sc *scheduler) runsHere(p config.Project) bool {
	runs, missing := sc.host.runsHere(p)
	if missing && !sc.absent[p.Name] {
		sc.absent[p.Name] = true
		sc.log.Info("project folder is not on this machine; other stations run it", "project", p.Name, "path", p.Path)
	}
	return runs
}
