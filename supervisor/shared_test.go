package supervisor

import (
	"context"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor/config"
)

// sharedMem is a memBoard shared with stations that do not exist: leases
// are kept per task, and the test decides which are lost or reaped.
type sharedMem struct {
	*memBoard
	name string

	mu       sync.Mutex
	held     map[string]bool
	lose     []string // Renew reports these lost, once
	reap     []Task   // Reap returns these, once
	renewals int
	released []string
}

func newSharedMem(name string) *sharedMem {
	return &sharedMem{memBoard: newMemBoard(), name: name, held: map[string]bool{}}
}

func (b *sharedMem) ClaimLeased(ctx context.Context, project string, slots int, _ time.Duration) (Task, bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.held) >= slots {
		return Task{}, false, nil
	}
	t, ok, err := b.Claim(ctx, project, b.name)
	if ok {
		b.held[t.ID] = true
	}
	return t, ok, err
}

func (b *sharedMem) Renew(context.Context, time.Duration) ([]string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.renewals++
	lost := b.lose
	b.lose = nil
	for _, id := range lost {
		delete(b.held, id)
	}
	return lost, nil
}

func (b *sharedMem) Release(_ context.Context, id string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.held, id)
	b.released = append(b.released, id)
	return nil
}

func (b *sharedMem) Reap(context.Context) ([]Task, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
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

var _ SharedBoard = (*sharedMem)(nil)

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
		if p.stops == 0 || len(h.st.Sessions()) != 0 {
			t.Fatal("the session of a lost task still runs")
		}
		// The new owner owns the task: this station moved nothing.
		if got := h.task(task.ID); got.State != TaskWorking {
			t.Fatalf("lost task moved to %s (%s)", got.State, got.Reason)
		}
		if slices.Contains(h.notes.kinds(), NoticeBlock) {
			t.Fatal("a lost task was reported blocked by the station that lost it")
		}
	})
}

func TestSharedBoardRecoverTouchesOnlyHeldTasks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newSharedMem("A")
		ctx := context.Background()
		mine, _ := b.AddTask(ctx, NewTask{Project: "web", Title: "mine"})
		b.Claim(ctx, "web", "A")
		theirs, _ := b.AddTask(ctx, NewTask{Project: "web", Title: "theirs"})
		b.Claim(ctx, "web", "B")
		b.held[mine.ID] = true
		h := startShared(t, b, project("web", time.Minute, time.Minute))
		if got := h.task(mine.ID); got.State != TaskBlocked {
			t.Errorf("held task is %s after a restart, want blocked", got.State)
		}
		if got := h.task(theirs.ID); got.State != TaskWorking {
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
		if h.task(o.ID).State != TaskTodo || h.task(a.ID).State != TaskTodo {
			t.Fatal("a project of other stations was claimed here")
		}
		if h.task(m.ID).State != TaskWorking {
			t.Fatal("a project naming this station was not run")
		}
	})
}

func TestSharedBoardPublishesReapedTasks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newSharedMem("A")
		h := startShared(t, b, project("web", time.Minute, time.Minute))
		b.mu.Lock()
		b.reap = []Task{{ID: "t9", Project: "web", Title: "dead", State: TaskBlocked, Reason: "station B lost"}}
		b.mu.Unlock()
		advance(time.Second)
		if !slices.Contains(h.notes.kinds(), NoticeBlock) {
			t.Fatal("a reaped task was not announced")
		}
		if b.renewals < 2 {
			t.Fatalf("%d renewals in a second with a 3s lease", b.renewals)
		}
	})
}
