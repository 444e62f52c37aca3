package source

import (
	"context"
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
	seen    map[string]time.Time // task id → UpdatedAt whose writes are queued
	told    map[string]bool      // task id + reason its session was told
	mu      sync.Mutex           // guards the states
	states  []supervisor.SourceState
	wakeups chan struct{}
}

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
	s := &Syncer{o: o, seen: map[string]time.Time{}, told: map[string]bool{}, wakeups: make(chan struct{}, 1)}
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

// Serve runs the syncer until ctx ends: a pass at each source's due time,
// and a write-back pass whenever a task moves.
func (s *Syncer) Serve(ctx context.Context) error {
	if len(s.srcs) == 0 {
		<-ctx.Done()
		return nil
	}
	sub := s.o.Station.Subscribe(256)
	defer sub.Close()
	timer := time.NewTimer(0)
	defer timer.Stop()
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
		case <-timer.C:
		case <-s.wakeups:
		}
		wait := s.Step(ctx)
		timer.Reset(wait)
	}
}

// Step is one pass at the syncer's clock: polls the sources that are due,
// queues the writes the board's tasks owe and sends what is owed. It
// returns how long until the next source is due. Tests drive it directly.
func (s *Syncer) Step(ctx context.Context) time.Duration {
	now := s.o.Now()
	for i, r := range s.srcs {
		if !now.Before(r.next) {
			s.poll(ctx, i, now)
		}
	}
	s.queueWrites(ctx)
	s.send(ctx, s.o.Now())
	wait := s.interval()
	for _, r := range s.srcs {
		wait = min(wait, max(r.next.Sub(s.o.Now()), time.Second))
	}
	return wait
}

func (s *Syncer) interval() time.Duration {
	if s.o.Interval > 0 {
		return s.o.Interval
	}
	return MinInterval
}

// failed records err for source i and schedules its next try: at the
// rate limit's reset, or after a back-off that doubles up to maxBackoff.
func (s *Syncer) failed(i int, err error, now time.Time) {
	r := s.srcs[i]
	r.backoff = min(max(2*r.backoff, s.interval()), maxBackoff)
	r.next = waitUntil(err, now, r.backoff)
	msg := Problem(r.cfg.Name(), err, Fix(r.cfg, s.o.Login(r.cfg.Kind)))
	s.o.Log.Warn("source", "source", r.cfg.Name(), "err", err)
	s.setState(i, func(st *supervisor.SourceState) { st.OK, st.Problem, st.Retry = false, msg, r.next })
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
