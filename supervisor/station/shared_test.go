package station

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// sharedMem is a memBoard shared with stations that do not exist: leases
// are kept per task, and the test decides which are lost or reaped.
type sharedMem struct {
	*memBoard
	name string

	mu    sync.Mutex
	held  map[string]bool
	taken map[string]bool // lost to another station: its moves are refused
	down  bool            // the board does not answer
	// nameTaken, when set, is what Renew and ClaimLeased answer, and
	// every held task is taken: a newer instance holds the name.
	nameTaken error
	reaps     int               // Reap calls
	lose      []string          // Renew reports these lost, once
	reap      []supervisor.Task // Reap returns these, once
	renewals  int
	released  []string
	states    map[string][]string      // session states written, by session
	others    []supervisor.SessionInfo // the other stations' live sessions
}

func newSharedMem(name string) *sharedMem {
	return &sharedMem{memBoard: newMemBoard(), name: name, held: map[string]bool{}, taken: map[string]bool{}}
}

func (b *sharedMem) ClaimLeased(ctx context.Context, project string, slots int, _ time.Duration) (supervisor.Task, bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.nameTaken != nil {
		return supervisor.Task{}, false, b.nameTaken
	}
	if len(b.held) >= slots {
		return supervisor.Task{}, false, nil
	}
	t, ok, err := b.Claim(ctx, project, b.name)
	if ok {
		b.held[t.ID] = true
	}
	return t, ok, err
}

func (b *sharedMem) isDown() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.down
}

func (b *sharedMem) Tasks(ctx context.Context, f supervisor.TaskFilter) ([]supervisor.Task, error) {
	if b.isDown() {
		return nil, fmt.Errorf("list tasks: %w", supervisor.ErrUnreachable)
	}
	return b.memBoard.Tasks(ctx, f)
}

func (b *sharedMem) SaveSession(ctx context.Context, r supervisor.SessionRecord) error {
	if b.isDown() {
		return fmt.Errorf("save session: %w", supervisor.ErrUnreachable)
	}
	return b.memBoard.SaveSession(ctx, r)
}

func (b *sharedMem) Renew(context.Context, time.Duration) ([]string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.down {
		return nil, fmt.Errorf("renew: %w", supervisor.ErrUnreachable)
	}
	if b.nameTaken != nil {
		for id := range b.held {
			b.taken[id] = true
		}
		return nil, b.nameTaken
	}
	b.renewals++
	lost := b.lose
	b.lose = nil
	for _, id := range lost {
		delete(b.held, id)
		b.taken[id] = true
	}
	return lost, nil
}

// Move refuses a move of a task another station took over, as the board's
// fence does.
func (b *sharedMem) Move(ctx context.Context, id string, m supervisor.Move) (supervisor.Task, error) {
	b.mu.Lock()
	taken, down := b.taken[id], b.down
	b.mu.Unlock()
	if down {
		return supervisor.Task{}, fmt.Errorf("move: %w", supervisor.ErrUnreachable)
	}
	if taken {
		return supervisor.Task{}, fmt.Errorf("task %s is leased by another station: %w", id, supervisor.ErrConflict)
	}
	return b.memBoard.Move(ctx, id, m)
}

func (b *sharedMem) Release(_ context.Context, id string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.held, id)
	b.released = append(b.released, id)
	return nil
}

func (b *sharedMem) Epoch(string) int64 { return 0 }

func (b *sharedMem) Reap(context.Context, time.Duration) ([]supervisor.Task, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reaps++
	r := b.reap
	b.reap = nil
	return r, nil
}

func (b *sharedMem) Station() string { return b.name }

func (b *sharedMem) Held() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var ids []string
	for id := range b.held {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

func (b *sharedMem) SetSessionState(_ context.Context, id, state string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.states == nil {
		b.states = map[string][]string{}
	}
	b.states[id] = append(b.states[id], state)
	return nil
}

func (b *sharedMem) OtherSessions(context.Context) ([]supervisor.SessionInfo, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.others), nil
}

var _ supervisor.SharedBoard = (*sharedMem)(nil)

func startShared(t *testing.T, b *sharedMem, projects ...config.Project) *harness {
	t.Helper()
	h := startWith(t, func(o *Options) {
		o.Board = b
		o.Config.Lease = 3 * time.Second
	}, projects...)
	h.board = b.memBoard
	return h
}

func TestSharedBoardLostLeaseEndsSessionWithoutWriting(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newSharedMem("A")
		h := startShared(t, b, project("web", 5*time.Minute, 5*time.Minute))
		task := h.add("web", "a")
		p := h.proc()
		if got := b.Held(); !slices.Equal(got, []string{task.ID}) {
			t.Fatalf("held %v after the claim", got)
		}
		b.mu.Lock()
		b.lose = []string{task.ID}
		b.mu.Unlock()
		advance(time.Second) // one beat: lease/3
		if p.stops == 0 || len(h.st.Sessions.Sessions()) != 0 {
			t.Fatal("the session of a lost task still runs")
		}
		// The new owner owns the task: this station moved nothing.
		if got := h.task(task.ID); got.State != supervisor.TaskWorking {
			t.Fatalf("lost task moved to %s (%s)", got.State, got.Reason)
		}
		if slices.Contains(h.notes.kinds(), supervisor.NoticeBlock) {
			t.Fatal("a lost task was reported blocked by the station that lost it")
		}
	})
}

func TestSharedBoardRecoverTouchesOnlyHeldTasks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newSharedMem("A")
		ctx := context.Background()
		mine, _ := b.AddTask(ctx, supervisor.NewTask{Project: "web", Title: "mine"})
		b.Claim(ctx, "web", "A")
		theirs, _ := b.AddTask(ctx, supervisor.NewTask{Project: "web", Title: "theirs"})
		b.Claim(ctx, "web", "B")
		b.held[mine.ID] = true
		h := startShared(t, b, project("web", time.Minute, time.Minute))
		if got := h.task(mine.ID); got.State != supervisor.TaskBlocked {
			t.Errorf("held task is %s after a restart, want blocked", got.State)
		}
		if got := h.task(theirs.ID); got.State != supervisor.TaskWorking {
			t.Errorf("another station's task is %s (%s) after a restart, want untouched", got.State, got.Reason)
		}
	})
}

func TestSharedBoardSkipsProjectsForOtherStations(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newSharedMem("A")
		other := project("other", time.Minute, time.Minute)
		other.Stations = []string{"buildbox"}
		absent := project("absent", time.Minute, time.Minute)
		absent.Path = "/no/such/folder/here"
		mine := project("mine", time.Minute, time.Minute)
		mine.Stations = []string{"buildbox", "A"}
		h := startShared(t, b, other, absent, mine)
		o, a := h.add("other", "x"), h.add("absent", "y")
		m := h.add("mine", "z")
		h.proc()
		if h.task(o.ID).State != supervisor.TaskTodo || h.task(a.ID).State != supervisor.TaskTodo {
			t.Fatal("a project of other stations was claimed here")
		}
		if h.task(m.ID).State != supervisor.TaskWorking {
			t.Fatal("a project naming this station was not run")
		}
	})
}

func TestSharedBoardPublishesReapedTasks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newSharedMem("A")
		h := startShared(t, b, project("web", time.Minute, time.Minute))
		b.mu.Lock()
		b.reap = []supervisor.Task{{ID: "t9", Project: "web", Title: "dead", State: supervisor.TaskBlocked, Reason: "station B lost"}}
		b.mu.Unlock()
		advance(time.Second)
		if !slices.Contains(h.notes.kinds(), supervisor.NoticeBlock) {
			t.Fatal("a reaped task was not announced")
		}
		if b.renewals < 2 {
			t.Fatalf("%d renewals in a second with a 3s lease", b.renewals)
		}
	})
}

// On a shared board the station lists the other stations' sessions beside
// its own, counts them, refuses their consoles naming the machine, and
// writes its own sessions' changes of state (not their output) to the board.
func TestSharedBoardShowsEveryStationsSessions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newSharedMem("A")
		b.others = []supervisor.SessionInfo{{ID: "t7.1", TaskID: "t7", Project: "web", Kind: "work", State: supervisor.SessReviewing, PID: 42, Station: "B"}}
		h := startShared(t, b, project("web", time.Minute, 5*time.Minute))
		task := h.add("web", "a")
		p := h.proc()
		p.say("hello\n")
		synctest.Wait()

		list := h.st.Sessions.Sessions()
		if len(list) != 2 || list[0].TaskID != task.ID || list[0].Station != "A" || list[1].ID != "t7.1" || list[1].Station != "B" {
			t.Fatalf("sessions = %+v, want A's own then B's", list)
		}
		if si, ok := h.st.Sessions.Session("t7.1"); !ok || si.Station != "B" {
			t.Fatalf("Session(t7.1) = %+v, %v", si, ok)
		}
		st, err := h.st.Control.Status(h.ctx)
		if err != nil || st.Working != 1 || st.Reviewing != 1 {
			t.Fatalf("status = %+v, %v; want A's working and B's reviewing session counted", st, err)
		}
		for verb, call := range map[string]func() error{
			"send":   func() error { return h.st.Sessions.Send(h.ctx, "t7.1", "hi") },
			"nudge":  func() error { return h.st.Sessions.Nudge(h.ctx, "t7.1") },
			"block":  func() error { return h.st.Sessions.Block(h.ctx, "t7.1", "") },
			"attach": func() error { _, err := h.st.Sessions.Attach("t7.1"); return err },
		} {
			err := call()
			if !errors.Is(err, supervisor.ErrConflict) || !strings.Contains(err.Error(), "session t7.1 runs on station B; "+verb+" from that machine") {
				t.Errorf("%s on B's session: %v", verb, err)
			}
		}

		advance(time.Minute + time.Second) // silent for the idle window
		id := list[0].ID
		b.mu.Lock()
		states := slices.Clone(b.states[id])
		b.mu.Unlock()
		if !slices.Equal(states, []string{"working", "nudged"}) {
			t.Fatalf("states written for %s = %v, want working then nudged: changes of state only", id, states)
		}
		if len(b.states["t7.1"]) != 0 {
			t.Fatal("wrote a state for another station's session")
		}
	})
}

// On the station's own board sessions name no station.
func TestOwnBoardSessionsNameNoStation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", time.Minute, time.Minute))
		task := h.add("web", "a")
		h.proc()
		if si := h.session(task.ID); si.Station != "" {
			t.Fatalf("station = %q on the own board", si.Station)
		}
	})
}
