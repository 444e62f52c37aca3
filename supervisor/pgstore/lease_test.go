package pgstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/supervisor"
)

func addTask(t *testing.T, s *Store, project, title string) supervisor.Task {
	t.Helper()
	task, err := s.AddTask(context.Background(), supervisor.NewTask{Project: project, Title: title})
	if err != nil {
		t.Fatal(err)
	}
	return task
}

func claimLeased(t *testing.T, s *Store, project string, slots int, lease time.Duration) supervisor.Task {
	t.Helper()
	task, ok, err := s.ClaimLeased(context.Background(), project, slots, lease)
	if err != nil || !ok {
		t.Fatalf("station %s ClaimLeased(%s) = %+v, %v, %v", s.Station(), project, task, ok, err)
	}
	return task
}

// A burst of work for four stations: each task is claimed once, by one
// station, and no project ever has more than its slots leased.
func TestClaimLeasedBurst(t *testing.T) {
	t.Parallel()
	const (
		stations, tasks, slots = 4, 200, 2
		perStation             = 2 // claim loops per station
	)
	projects := []string{"p0", "p1", "p2"}
	url := newDB(t)
	stores := make([]*Store, stations)
	for i := range stores {
		stores[i] = openStore(t, url, fmt.Sprint("st", i))
	}
	for i := range tasks {
		addTask(t, stores[0], projects[i%len(projects)], fmt.Sprint("task ", i))
	}

	var (
		mu      sync.Mutex
		claimed = map[string]string{} // task → station
		twice   []string
		errs    []error
		held    = map[string]*atomic.Int32{}
		doneN   atomic.Int32
		wg      sync.WaitGroup
	)
	for _, p := range projects {
		held[p] = new(atomic.Int32)
	}
	fail := func(err error) {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
	}
	ctx := context.Background()
	deadline := time.Now().Add(2 * time.Minute)
	start := make(chan struct{})
	for i := range stations * perStation {
		s := stores[i%stations]
		wg.Go(func() {
			<-start
			for k := i; doneN.Load() < tasks && time.Now().Before(deadline); k++ {
				p := projects[k%len(projects)]
				task, ok, err := s.ClaimLeased(ctx, p, slots, time.Minute)
				if err != nil {
					fail(err)
					return
				}
				if !ok {
					// Slots full or queue empty: let the holders finish.
					time.Sleep(time.Millisecond)
					continue
				}
				// Held from here until just before the lease ends, so this
				// count never exceeds the leases live in the database.
				if n := held[p].Add(1); n > slots {
					fail(fmt.Errorf("%d tasks of %s held at once, slots %d", n, p, slots))
				}
				if n := queryInt(t, s, "SELECT count(*) FROM leases WHERE project = $1 AND expires_at > clock_timestamp()", p); n > slots {
					fail(fmt.Errorf("%d live leases on %s, slots %d", n, p, slots))
				}
				mu.Lock()
				if _, dup := claimed[task.ID]; dup {
					twice = append(twice, task.ID)
				}
				claimed[task.ID] = s.Station()
				mu.Unlock()
				held[p].Add(-1)
				// Half end the lease by moving the task out of working,
				// half release it first.
				if k%2 == 1 {
					if err := s.Release(ctx, task.ID); err != nil {
						fail(err)
					}
				}
				if _, err := s.Move(ctx, task.ID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskWorking}, To: supervisor.TaskDone, Actor: s.Station()}); err != nil {
					fail(err)
				}
				doneN.Add(1)
			}
		})
	}
	close(start)
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	if len(twice) > 0 {
		t.Errorf("claimed twice: %v", twice)
	}
	if len(claimed) != tasks {
		t.Errorf("%d tasks claimed, want %d", len(claimed), tasks)
	}
	perSt := map[string]int{}
	for id, st := range claimed {
		perSt[st]++
		h, err := stores[0].History(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if len(h) != 3 || h[1].To != supervisor.TaskWorking || h[1].Actor != st || h[2].To != supervisor.TaskDone {
			t.Errorf("history of %s (claimed by %s) = %+v", id, st, h)
		}
	}
	t.Logf("claims per station: %v", perSt)
	if n := queryInt(t, stores[0], "SELECT count(*) FROM leases"); n != 0 {
		t.Errorf("%d leases left after every task was done", n)
	}
	if n := queryInt(t, stores[0], "SELECT count(*) FROM tasks WHERE state <> 'done'"); n != 0 {
		t.Errorf("%d tasks not done", n)
	}
}

// A station that stops renewing loses its task: after the lease expires
// another station's Reap blocks it, the first station's late Move is
// refused, and its next Renew names the task as lost.
func TestLeaseExpiry(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := newDB(t)
	a, b, c := openStore(t, url, "A"), openStore(t, url, "B"), openStore(t, url, "C")
	lost := addTask(t, a, "web", "lost")
	kept := addTask(t, a, "web", "kept")
	lost = claimLeased(t, a, "web", 2, time.Second)
	kept = claimLeased(t, c, "web", 2, time.Second)
	// C renews, A does not.
	if gone, err := c.Renew(ctx, time.Minute); err != nil || len(gone) != 0 {
		t.Fatalf("C Renew = %v, %v", gone, err)
	}

	// The lease lasts a second of the server's clock: wait for it by
	// reaping until something is reaped.
	var reaped []supervisor.Task
	testwait.Eventually(t, 30*time.Second, func() bool {
		var err error
		if reaped, err = b.Reap(ctx, 0); err != nil {
			t.Fatal(err)
		}
		return len(reaped) > 0
	}, "A's lease to be reaped")
	if len(reaped) != 1 || reaped[0].ID != lost.ID || reaped[0].State != supervisor.TaskBlocked || reaped[0].Reason != "station A lost" {
		t.Fatalf("Reap = %+v, want %s blocked with reason \"station A lost\"", reaped, lost.ID)
	}
	got, err := b.Task(ctx, lost.ID)
	if err != nil || got.State != supervisor.TaskBlocked || got.Reason != "station A lost" {
		t.Errorf("reaped task = %+v, %v", got, err)
	}
	h, _ := b.History(ctx, lost.ID)
	if last := h[len(h)-1]; last.Actor != "reaper" || last.From != supervisor.TaskWorking || last.To != supervisor.TaskBlocked {
		t.Errorf("reap history row = %+v", last)
	}
	if got, _ := b.Task(ctx, kept.ID); got.State != supervisor.TaskWorking {
		t.Errorf("renewed task %s = %s, want still working", kept.ID, got.State)
	}

	// A wakes up: whatever it tries on the task is refused, even a move
	// that would fit the task's new state, and so is a move of C's task.
	for _, m := range []supervisor.Move{
		{From: []supervisor.TaskState{supervisor.TaskWorking}, To: supervisor.TaskReview, Actor: "A"},
		{From: []supervisor.TaskState{supervisor.TaskBlocked}, To: supervisor.TaskTodo, Actor: "A"},
	} {
		_, err := a.Move(ctx, lost.ID, m)
		var le *LeaseError
		if !errors.Is(err, supervisor.ErrConflict) || !errors.As(err, &le) || le.Holder != "" {
			t.Errorf("A's Move %v→%s of its reaped task err = %v, want a lost-lease conflict", m.From, m.To, err)
		}
	}
	_, err = a.Move(ctx, kept.ID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskWorking}, To: supervisor.TaskDone, Actor: "A"})
	if le := (*LeaseError)(nil); !errors.As(err, &le) || le.Holder != "C" || !errors.Is(err, supervisor.ErrConflict) {
		t.Errorf("A's Move of C's task err = %v, want a conflict naming C", err)
	}
	gone, err := a.Renew(ctx, time.Minute)
	if err != nil || !slices.Equal(gone, []string{lost.ID}) {
		t.Errorf("A Renew = %v, %v; want [%s] lost", gone, err, lost.ID)
	}
	if gone, err := a.Renew(ctx, time.Minute); err != nil || len(gone) != 0 {
		t.Errorf("second A Renew = %v, %v; want nothing lost again", gone, err)
	}
	// Having heard, A acts as any other client would on an unleased task.
	if _, err := a.Move(ctx, lost.ID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskBlocked}, To: supervisor.TaskTodo, Actor: "cli"}); err != nil {
		t.Errorf("A's requeue after hearing of the loss: %v", err)
	}
	// C, the owner, moves its task; the lease ends with it.
	if _, err := c.Move(ctx, kept.ID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskWorking}, To: supervisor.TaskDone}); err != nil {
		t.Errorf("C's Move of its own task: %v", err)
	}
	if n := queryInt(t, c, "SELECT count(*) FROM leases"); n != 0 {
		t.Errorf("%d leases left", n)
	}
}

// Stations reaping at once end each expired lease once between them.
func TestReapConcurrently(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := newDB(t)
	const tasks, reapers = 12, 4
	dead := openStore(t, url, "dead")
	for i := range tasks {
		addTask(t, dead, "p", fmt.Sprint("task ", i))
		claimLeased(t, dead, "p", tasks, time.Minute)
	}
	// Expire them all at once, as if a minute had passed.
	if _, err := dead.pool.Exec(ctx, "UPDATE leases SET expires_at = clock_timestamp() - interval '1 second'"); err != nil {
		t.Fatal(err)
	}
	stores := make([]*Store, reapers)
	for i := range stores {
		stores[i] = openStore(t, url, fmt.Sprint("r", i))
	}
	var (
		mu    sync.Mutex
		moved = map[string]int{}
		wg    sync.WaitGroup
	)
	start := make(chan struct{})
	for _, s := range stores {
		wg.Go(func() {
			<-start
			ts, err := s.Reap(ctx, 0)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			defer mu.Unlock()
			for _, task := range ts {
				moved[task.ID]++
			}
		})
	}
	close(start)
	wg.Wait()
	if len(moved) != tasks {
		t.Errorf("%d tasks reaped, want %d", len(moved), tasks)
	}
	for id, n := range moved {
		if n != 1 {
			t.Errorf("%s reaped %d times", id, n)
		}
	}
	if n := queryInt(t, dead, "SELECT count(*) FROM transitions WHERE actor = 'reaper'"); n != tasks {
		t.Errorf("%d reaper history rows, want %d", n, tasks)
	}
	if n := queryInt(t, dead, "SELECT count(*) FROM leases"); n != 0 {
		t.Errorf("%d leases left", n)
	}
}

// Leases take slots per project; releasing gives the slot back without
// moving the task, and a task with no lease moves as on the SQLite board.
func TestLeaseSlots(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := newDB(t)
	a, b := openStore(t, url, "a"), openStore(t, url, "b")
	for i := range 3 {
		addTask(t, a, "web", fmt.Sprint("web ", i))
	}
	other := addTask(t, a, "api", "api 0")
	first := claimLeased(t, a, "web", 1, time.Minute)
	if task, ok, err := b.ClaimLeased(ctx, "web", 1, time.Minute); ok || err != nil {
		t.Fatalf("ClaimLeased with web's one slot taken = %+v, %v, %v", task, ok, err)
	}
	if got := claimLeased(t, b, "api", 1, time.Minute); got.ID != other.ID {
		t.Errorf("claimed %s of api, want %s", got.ID, other.ID)
	}
	// Releasing by another station does nothing; by the holder frees it.
	if err := b.Release(ctx, first.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := b.ClaimLeased(ctx, "web", 1, time.Minute); ok {
		t.Fatal("b's Release freed a's slot")
	}
	if err := a.Release(ctx, first.ID); err != nil {
		t.Fatal(err)
	}
	second := claimLeased(t, b, "web", 1, time.Minute)
	if got, _ := a.Task(ctx, first.ID); got.State != supervisor.TaskWorking {
		t.Errorf("released task is %s, want still working", got.State)
	}
	// The released task has no lease: anyone moves it, as on one station.
	if _, err := b.Move(ctx, first.ID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskWorking}, To: supervisor.TaskBlocked, Reason: "by hand"}); err != nil {
		t.Errorf("Move of an unleased task: %v", err)
	}
	// Moving to review keeps the lease (a review session runs); a move
	// out of review ends it.
	if _, err := b.Move(ctx, second.ID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskWorking}, To: supervisor.TaskReview}); err != nil {
		t.Fatal(err)
	}
	if n := queryInt(t, b, "SELECT count(*) FROM leases WHERE project = 'web'"); n != 1 {
		t.Errorf("%d web leases after a move to review, want 1", n)
	}
	if _, err := a.Move(ctx, second.ID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskReview}, To: supervisor.TaskDone}); !errors.Is(err, supervisor.ErrConflict) {
		t.Errorf("a's Move of b's task in review err = %v, want a conflict", err)
	}
	if _, err := b.Move(ctx, second.ID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskReview}, To: supervisor.TaskDone}); err != nil {
		t.Fatal(err)
	}
	if n := queryInt(t, b, "SELECT count(*) FROM leases WHERE project = 'web'"); n != 0 {
		t.Errorf("%d web leases after done, want 0", n)
	}
	if _, _, err := a.ClaimLeased(ctx, "web", 0, time.Minute); err == nil {
		t.Error("ClaimLeased with 0 slots succeeded")
	}
	if n := queryInt(t, a, "SELECT count(*) FROM stations"); n != 2 {
		t.Errorf("%d stations recorded, want 2", n)
	}
}

// A station restarted under its name holds its leases still.
func TestHeldAfterRestart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := newDB(t)
	a := openStore(t, url, "a")
	addTask(t, a, "p", "one")
	addTask(t, a, "p", "two")
	one := claimLeased(t, a, "p", 2, time.Minute)
	two := claimLeased(t, a, "p", 2, time.Minute)
	if got := a.Held(); !slices.Equal(got, []string{one.ID, two.ID}) {
		t.Errorf("Held = %v", got)
	}
	a.Close()
	a = openStore(t, url, "a")
	if got := a.Held(); !slices.Equal(got, []string{one.ID, two.ID}) {
		t.Errorf("Held after restart = %v", got)
	}
	if err := a.Release(ctx, one.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Move(ctx, two.ID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskWorking}, To: supervisor.TaskReview}); err != nil {
		t.Errorf("restarted station's Move of its leased task: %v", err)
	}
	if got := a.Held(); !slices.Equal(got, []string{two.ID}) {
		t.Errorf("Held after Release = %v", got)
	}
}
