package station

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// memBoard is a hand-written in-memory Board for the station's tests; the
// SQLite board passes the same conformance suite (supervisor/boardtest).
type memBoard struct {
	mu       sync.Mutex
	seq      int
	tasks    map[string]*supervisor.Task
	order    []string
	history  map[string][]supervisor.Transition
	sessions map[string]supervisor.SessionRecord
	paused   map[string]string
}

func newMemBoard() *memBoard {
	return &memBoard{tasks: map[string]*supervisor.Task{}, history: map[string][]supervisor.Transition{}, sessions: map[string]supervisor.SessionRecord{}, paused: map[string]string{}}
}

func (b *memBoard) AddTask(_ context.Context, nt supervisor.NewTask) (supervisor.Task, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seq++
	now := time.Now().UTC()
	t := &supervisor.Task{ID: supervisor.TaskID(int64(b.seq)), Project: nt.Project, Title: nt.Title, Body: nt.Body, State: supervisor.TaskTodo, Attempt: 1, CreatedAt: now, UpdatedAt: now}
	b.tasks[t.ID] = t
	b.order = append(b.order, t.ID)
	b.history[t.ID] = append(b.history[t.ID], supervisor.Transition{TaskID: t.ID, To: supervisor.TaskTodo, Attempt: 1, At: now})
	return *t, nil
}

func (b *memBoard) Task(_ context.Context, id string) (supervisor.Task, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t, ok := b.tasks[id]
	if !ok {
		return supervisor.Task{}, supervisor.ErrNotFound
	}
	return *t, nil
}

func (b *memBoard) Tasks(_ context.Context, f supervisor.TaskFilter) ([]supervisor.Task, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []supervisor.Task
	for _, id := range b.order {
		t := b.tasks[id]
		if (f.State == "" || t.State == f.State) && (f.Project == "" || t.Project == f.Project) {
			out = append(out, *t)
		}
	}
	return f.Page(out), nil
}

func (b *memBoard) History(_ context.Context, id string) ([]supervisor.Transition, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.history[id]), nil
}

func (b *memBoard) Move(_ context.Context, id string, m supervisor.Move) (supervisor.Task, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.moveLocked(id, m)
}

func (b *memBoard) moveLocked(id string, m supervisor.Move) (supervisor.Task, error) {
	t, ok := b.tasks[id]
	if !ok {
		return supervisor.Task{}, supervisor.ErrNotFound
	}
	nt, tr, err := t.Apply(m, time.Now())
	if err != nil {
		return supervisor.Task{}, err
	}
	*t = nt
	b.history[id] = append(b.history[id], tr)
	return nt, nil
}

func (b *memBoard) Claim(_ context.Context, project, actor string) (supervisor.Task, bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, id := range b.order {
		if t := b.tasks[id]; t.Project == project && t.State == supervisor.TaskTodo {
			nt, err := b.moveLocked(id, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskTodo}, To: supervisor.TaskWorking, Actor: actor})
			return nt, err == nil, err
		}
	}
	return supervisor.Task{}, false, nil
}

func (b *memBoard) SaveSession(_ context.Context, s supervisor.SessionRecord) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sessions[s.ID] = s
	return nil
}

func (b *memBoard) Sessions(_ context.Context, live bool) ([]supervisor.SessionRecord, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []supervisor.SessionRecord
	for _, s := range b.sessions {
		if !live || s.EndedAt.IsZero() {
			out = append(out, s)
		}
	}
	return out, nil
}

func (b *memBoard) SetPaused(_ context.Context, p string, paused bool, reason string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if paused {
		b.paused[p] = reason
	} else {
		delete(b.paused, p)
	}
	return nil
}

func (b *memBoard) Paused(context.Context) (map[string]string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := map[string]string{}
	for k, v := range b.paused {
		out[k] = v
	}
	return out, nil
}

func (b *memBoard) Close() error { return nil }

// fakeProc is an in-memory agent process. The test plays the agent: it
// writes output with say, reads what the station typed with typed, and
// ends it with exit. It runs inside a synctest bubble, so every wait here is
// on channels.
type fakeProc struct {
	spec   supervisor.SpawnSpec
	pid    int
	outR   *io.PipeReader
	outW   *io.PipeWriter
	mu     sync.Mutex
	writes []string // each Write the station made, in order
	wrote  chan string
	exited chan int
	once   sync.Once
	stops  int
	// stuck, once set by stick, holds every Write until the terminal is
	// closed: an agent that never reads its input. inWrite counts the
	// writes held now, each a goroutine.
	stuck   chan struct{}
	closed  bool
	inWrite atomic.Int32
}

// stick makes the terminal stop taking input.
func (p *fakeProc) stick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stuck = make(chan struct{})
}

func newFakeProc(spec supervisor.SpawnSpec, pid int) *fakeProc {
	r, w := io.Pipe()
	return &fakeProc{spec: spec, pid: pid, outR: r, outW: w, wrote: make(chan string, 64), exited: make(chan int, 1)}
}

func (p *fakeProc) Read(b []byte) (int, error) { return p.outR.Read(b) }

func (p *fakeProc) Write(b []byte) (int, error) {
	p.inWrite.Add(1)
	defer p.inWrite.Add(-1)
	p.mu.Lock()
	stuck := p.stuck
	p.mu.Unlock()
	if stuck != nil {
		<-stuck
		return 0, errors.New("write /dev/ptmx: file already closed")
	}
	p.mu.Lock()
	p.writes = append(p.writes, string(b))
	p.mu.Unlock()
	select {
	case p.wrote <- string(b):
	default:
	}
	return len(b), nil
}

func (p *fakeProc) say(s string) { _, _ = p.outW.Write([]byte(s)) }

func (p *fakeProc) exit(code int) {
	p.once.Do(func() {
		p.exited <- code
		close(p.exited)
		p.outW.Close()
	})
}

func (p *fakeProc) Pid() int                 { return p.pid }
func (p *fakeProc) Resize(_, _ uint16) error { return nil }
func (p *fakeProc) Wait() (int, error) {
	c, ok := <-p.exited
	if !ok {
		return -1, fmt.Errorf("killed")
	}
	return c, nil
}

func (p *fakeProc) Stop(time.Duration) error {
	p.mu.Lock()
	p.stops++
	p.mu.Unlock()
	p.exit(-1)
	return nil
}

func (p *fakeProc) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stuck != nil && !p.closed {
		close(p.stuck)
	}
	p.closed = true
	return nil
}

func (p *fakeProc) Writes() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.writes)
}

// fakeSpawner hands each new fakeProc to the test.
type fakeSpawner struct {
	mu    sync.Mutex
	pid   int
	procs chan *fakeProc
	fail  error
	// handled makes its procs Handled, like tmux's: they outlive a station.
	handled bool
	started []*fakeProc
	// before, if set, runs at the start of each Spawn.
	before func(supervisor.SpawnSpec)
}

type handledProc struct{ *fakeProc }

func (h handledProc) Handle() string { return fmt.Sprintf("@%d", h.pid) }

func (s *fakeSpawner) Spawn(spec supervisor.SpawnSpec) (supervisor.Proc, error) {
	if s.before != nil {
		s.before(spec)
	}
	if s.fail != nil {
		return nil, s.fail
	}
	s.mu.Lock()
	s.pid++
	p := newFakeProc(spec, 1000+s.pid)
	s.mu.Unlock()
	s.procs <- p
	s.mu.Lock()
	s.started = append(s.started, p)
	s.mu.Unlock()
	if s.handled {
		return handledProc{p}, nil
	}
	return p, nil
}

// recNotifier records notices.
type recNotifier struct {
	mu sync.Mutex
	ns []supervisor.Notice
}

func (r *recNotifier) Notify(_ context.Context, n supervisor.Notice) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ns = append(r.ns, n)
}

func (r *recNotifier) all() []supervisor.Notice {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.ns)
}

func (r *recNotifier) kinds() []supervisor.NoticeKind {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []supervisor.NoticeKind
	for _, n := range r.ns {
		out = append(out, n.Kind)
	}
	return out
}

// fakeProber reports life when alive says so.
type fakeProber struct {
	mu    sync.Mutex
	alive bool
}

func (f *fakeProber) Layer() string { return "cpu" }
func (f *fakeProber) Probe(_ context.Context, _ supervisor.ProbeTarget, _ time.Time) (supervisor.Life, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.alive {
		return supervisor.Life{At: time.Now(), Detail: "12.0s CPU in cc1"}, true, nil
	}
	return supervisor.Life{}, false, nil
}
func (f *fakeProber) Forget(string) {}
func (f *fakeProber) set(v bool)    { f.mu.Lock(); f.alive = v; f.mu.Unlock() }

// Adopt finds a proc this spawner started by its handle, as tmux would find
// a window after a station restart.
func (s *fakeSpawner) Adopt(handle string) (supervisor.Proc, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.started {
		if fmt.Sprintf("@%d", p.pid) == handle {
			select {
			case <-p.exited:
				return nil, false, nil
			default:
			}
			return handledProc{p}, true, nil
		}
	}
	return nil, false, nil
}
