package source

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// MinInterval is the least time between two polls of one source: polls
// are conditional and cheap, but a team's rate limit is shared with its
// people and its CI.
const MinInterval = time.Minute

// maxBackoff caps the wait after a failure that names no reset time.
const maxBackoff = 15 * time.Minute

// Station is what the syncer adds tasks through, so the scheduler hears
// of them at once (*station.Station).
type Station interface {
	AddTask(ctx context.Context, nt supervisor.NewTask) (supervisor.Task, error)
	Subscribe(buffer int) *supervisor.Subscription
}

// Requeuer queues a cancelled task again as a new attempt, its history
// kept (*station.Station's Requeue); without it the syncer moves the task
// on the board itself.
type Requeuer interface {
	Requeue(ctx context.Context, id, note string) (supervisor.Task, error)
}

// Teller types a message into a task's running session, as a person's
// `session send` does (*station.Station's Send).
type Teller interface {
	Send(ctx context.Context, id, text string) error
}

// Options wire a Syncer.
type Options struct {
	Sources  []config.Source
	Trackers []Tracker // one per source, in the same order
	Station  Station
	// Board reads tasks and their history, cancels a queued task (a move
	// from todo alone, so a task that just started is never cancelled)
	// and edits one (supervisor.TaskEditor).
	Board  supervisor.Board
	Ledger Ledger
	// Publish pushes a task's branches to its project's remote before its
	// pull request is opened; nil pushes nothing.
	Publish func(ctx context.Context, project, taskID string) error
	Context Context
	// Interval is the time between polls of a source (MinInterval in the
	// station; tests pass less).
	Interval time.Duration
	Now      func() time.Time
	Log      *slog.Logger
	// Login is the command that stores a token for a kind, for problems:
	// "buildstation source login github".
	Login func(kind string) string
}

// Syncer polls the sources, imports their issues and writes progress
// back. One goroutine (Serve) owns it; State may be read from any.
type Syncer struct {
	o       Options
	srcs    []*sourceRun
	wmu     sync.Mutex           // guards seen and told: each source's pass runs on its own goroutine
	seen    map[string]time.Time // task id → UpdatedAt whose writes are queued
	told    map[string]bool      // task id + reason its session was told
	relayed map[string]time.Time // task id → the last issue comment typed into its session
	fed     map[string]bool      // task id + a pull request's feedback id that sent it back
	wakes   []chan struct{}      // Serve's per-source wake-ups (guarded by wmu)
	mu      sync.Mutex           // guards the states and each source's next
	states  []supervisor.SourceState
	wakeups chan struct{}
}

// stepDeadline bounds one source's pass (its poll's pages and its
// writes): a source that hangs holds only itself, and not for long.
const stepDeadline = 2 * time.Minute

// sourceRun is one source's schedule.
type sourceRun struct {
	cfg     config.Source
	tr      Tracker
	next    time.Time     // no request before this
	backoff time.Duration // the next wait after a failure
}

// New returns a Syncer over o.
func New(o Options) *Syncer {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Login == nil {
		o.Login = func(kind string) string { return "buildstation source login " + kind }
	}
	s := &Syncer{o: o, seen: map[string]time.Time{}, told: map[string]bool{}, relayed: map[string]time.Time{}, fed: map[string]bool{}, wakeups: make(chan struct{}, 1)}
	for i, c := range o.Sources {
		s.srcs = append(s.srcs, &sourceRun{cfg: c, tr: o.Trackers[i]})
		s.states = append(s.states, supervisor.SourceState{Name: c.Name(), Kind: c.Kind, Project: c.Project})
	}
	return s
}

// SetStation sets what tasks are added through, when the station is made
// after the syncer (its prober is one of the station's layers). Call it
// before Serve.
func (s *Syncer) SetStation(st Station) { s.o.Station = st }

// SetWorkspace sets what write-backs name (c) and how a task's branch is
// pushed (publish), once the station's worktrees exist. Call it before
// Serve.
func (s *Syncer) SetWorkspace(c Context, publish func(ctx context.Context, project, taskID string) error) {
	s.o.Context, s.o.Publish = c, publish
}

// Prober is the syncer's layer of evidence for the watchdog.
func (s *Syncer) Prober(tasks TaskReader) *Prober {
	return &Prober{Syncer: s, Tasks: tasks, Now: s.o.Now}
}

// State is every source's state, for status, `source ls` and the tray.
func (s *Syncer) State() []supervisor.SourceState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]supervisor.SourceState(nil), s.states...)
}

func (s *Syncer) setState(i int, f func(st *supervisor.SourceState)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(&s.states[i])
}

// Serve runs the syncer until ctx ends: each source on its own goroutine,
// a pass at its due time and whenever a task moves, so a source that
// hangs or backs off never holds another.
func (s *Syncer) Serve(ctx context.Context) error {
	if len(s.srcs) == 0 {
		<-ctx.Done()
		return nil
	}
	sub := s.o.Station.Subscribe(256)
	defer sub.Close()
	wakes := make([]chan struct{}, len(s.srcs))
	for i := range wakes {
		wakes[i] = make(chan struct{}, 1)
	}
	s.wmu.Lock()
	s.wakes = wakes
	s.wmu.Unlock()
	var wg sync.WaitGroup
	defer wg.Wait()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for i := range s.srcs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.serveSource(ctx, i, wakes[i])
		}()
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case e, ok := <-sub.C:
			if !ok {
				return fmt.Errorf("sources: the station's events ended")
			}
			if e.Kind != supervisor.EventTask || e.Task == nil || e.Task.External.IsZero() {
				continue
			}
		case <-s.wakeups:
		}
		for _, w := range wakes {
			select {
			case w <- struct{}{}:
			default: // a pass is due already
			}
		}
	}
}

// serveSource runs source i's passes until ctx ends.
func (s *Syncer) serveSource(ctx context.Context, i int, wake <-chan struct{}) {
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		case <-wake:
			if !timer.Stop() {
				select {
				case <-timer.C:
				default:
				}
			}
		}
		timer.Reset(s.stepSource(ctx, i))
	}
}

// Step is one pass at the syncer's clock for every source at once, each
// on its own goroutine: polls the sources that are due, queues the writes
// the board's tasks owe and sends what is owed. It returns how long until
// the next source is due. Tests drive it directly.
func (s *Syncer) Step(ctx context.Context) time.Duration {
	// Every source polls and queues, then every source sends: a Linear
	// issue's pull request, queued by the Linear source, goes out through
	// the GitHub source in the same step.
	each := func(f func(i int)) {
		var wg sync.WaitGroup
		for i := range s.srcs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				f(i)
			}()
		}
		wg.Wait()
	}
	each(func(i int) { s.pollAndQueue(ctx, i) })
	each(func(i int) { s.sendWithin(ctx, i) })
	wait := s.interval()
	for i := range s.srcs {
		wait = min(wait, s.intervalOf(i))
		wait = min(wait, max(s.nextOf(i).Sub(s.o.Now()), time.Second))
	}
	return wait
}

// stepSource is one pass of source i.
func (s *Syncer) stepSource(ctx context.Context, i int) time.Duration {
	if s.pollAndQueue(ctx, i) {
		// It queued writes another source sends (a Linear issue's pull
		// request on the project's GitHub source): wake them.
		s.wakeOthers(i)
	}
	s.sendWithin(ctx, i)
	return max(s.nextOf(i).Sub(s.o.Now()), time.Second)
}

// pollAndQueue polls source i when it is due and queues what its tasks
// owe, within stepDeadline; it reports whether it queued a write that
// goes through another source.
func (s *Syncer) pollAndQueue(ctx context.Context, i int) bool {
	ctx, cancel := context.WithTimeout(ctx, stepDeadline)
	defer cancel()
	if now := s.o.Now(); !now.Before(s.nextOf(i)) {
		s.poll(ctx, i, now)
	}
	return s.queueWrites(ctx, i)
}

// sendWithin sends source i's writes within stepDeadline.
func (s *Syncer) sendWithin(ctx context.Context, i int) {
	ctx, cancel := context.WithTimeout(ctx, stepDeadline)
	defer cancel()
	s.send(ctx, s.o.Now(), i)
}

// wakeOthers asks every source but i for a pass (Serve's goroutines).
func (s *Syncer) wakeOthers(i int) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	for j, w := range s.wakes {
		if j == i {
			continue
		}
		select {
		case w <- struct{}{}:
		default:
		}
	}
}

func (s *Syncer) interval() time.Duration {
	if s.o.Interval > 0 {
		return s.o.Interval
	}
	return MinInterval
}

// intervalOf is source i's time between polls: its poll key, or the
// syncer's.
func (s *Syncer) intervalOf(i int) time.Duration {
	if p := s.srcs[i].cfg.Poll; p > 0 {
		return p
	}
	return s.interval()
}

// rateKey is what a rate limit belongs to: the token (the keychain's for
// the kind and host, or token_env's variable) on the API's host.
func rateKey(c config.Source) string {
	return c.Kind + "|" + c.APIURL + "|" + c.TokenEnv
}

func (s *Syncer) nextOf(i int) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.srcs[i].next
}

func (s *Syncer) setNext(i int, t time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.srcs[i].next = t
}

// failed records err for source i and schedules its next try: at the
// rate limit's reset, or after a back-off that doubles up to maxBackoff.
func (s *Syncer) failed(i int, err error, now time.Time) {
	r := s.srcs[i]
	r.backoff = min(max(2*r.backoff, s.intervalOf(i)), maxBackoff)
	next := waitUntil(err, now, r.backoff)
	s.setNext(i, next)
	msg := Problem(r.cfg.Name(), err, Fix(r.cfg, s.o.Login(r.cfg.Kind)))
	s.o.Log.Warn("source", "source", r.cfg.Name(), "err", err)
	s.setState(i, func(st *supervisor.SourceState) { st.OK, st.Problem, st.Retry = false, msg, next })
	var ae *APIError
	if !errors.As(err, &ae) || !ae.Limited {
		return
	}
	// A rate limit is the token's on its host: every source read with the
	// same token there waits for the same reset.
	for j, o := range s.srcs {
		if j == i || rateKey(o.cfg) != rateKey(r.cfg) {
			continue
		}
		if s.nextOf(j).Before(next) {
			s.setNext(j, next)
		}
		m := Problem(o.cfg.Name(), err, Fix(o.cfg, s.o.Login(o.cfg.Kind)))
		s.setState(j, func(st *supervisor.SourceState) { st.OK, st.Problem, st.Retry = false, m, next })
	}
}

// worked records a request of source i that went through.
func (s *Syncer) worked(i int, now time.Time) {
	r := s.srcs[i]
	r.backoff = 0
	s.setState(i, func(st *supervisor.SourceState) { st.OK, st.Problem, st.Retry, st.Checked = true, "", time.Time{}, now })
}

// find is the index of the source that owns ref, or -1.
func (s *Syncer) find(ref *supervisor.External, project string) int {
	for i, r := range s.srcs {
		if (project == "" || r.cfg.Project == project) && Owns(r.cfg, ref) {
			return i
		}
	}
	return -1
}
