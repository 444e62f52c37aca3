package pgstore

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// A paused station (SIGSTOP, a suspended laptop) whose name another
// instance took over while it was away learns so at its next renewal, and
// can neither claim nor move under the name any more: it is not that
// station now.
func TestNameTakenOverWhileAway(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := newDB(t)
	a, err := OpenAs(ctx, url, Identity{Name: "dup", Origin: "host1:/home/a", Lease: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	for range 3 {
		addTask(t, a, "web", "task")
	}
	held := claimLeased(t, a, "web", 3, time.Minute)
	// A stops for longer than its lease: the board last saw it long ago.
	expire(t, a, "dup")
	if _, err := a.pool.Exec(ctx, "UPDATE stations SET last_seen = clock_timestamp() - interval '1 hour' WHERE name = 'dup'"); err != nil {
		t.Fatal(err)
	}
	b, err := OpenAs(ctx, url, Identity{Name: "dup", Origin: "host2:/home/b", Lease: time.Minute})
	if err != nil {
		t.Fatalf("B under a lapsed name: %v", err)
	}
	t.Cleanup(func() { b.Close() })

	// A wakes.
	lost, err := a.Renew(ctx, time.Minute)
	if !errors.Is(err, supervisor.ErrNameTaken) {
		t.Fatalf("A's renewal after B took its name = %v, %v; want ErrNameTaken", lost, err)
	}
	if !strings.Contains(err.Error(), "host2:/home/b") {
		t.Errorf("err = %q, want it to say where the name's instance runs now", err)
	}
	if task, ok, err := a.ClaimLeased(ctx, "web", 3, time.Minute); ok || !errors.Is(err, supervisor.ErrNameTaken) {
		t.Fatalf("A claimed %s (ok %v, err %v) under a name B holds", task.ID, ok, err)
	}
	_, err = a.Move(ctx, held.ID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskWorking}, To: supervisor.TaskDone, Summary: "late", Actor: "agent"})
	if !errors.Is(err, supervisor.ErrConflict) {
		t.Fatalf("A's move of a task B took over = %v, want a conflict", err)
	}
	// B goes on as the name's one live instance.
	if _, err := b.Renew(ctx, time.Minute); err != nil {
		t.Fatalf("B's renewal: %v", err)
	}
	if _, ok, err := b.ClaimLeased(ctx, "web", 3, time.Minute); !ok || err != nil {
		t.Fatalf("B's claim = %v, %v", ok, err)
	}
}

// A station taking a name over leaves alone what a live older instance of
// the name still leases (one that has not yet woken to learn it lost the
// name): it neither holds those leases nor lists their sessions, so its
// recovery never blocks or ends them; they lapse, and the reaper settles
// them, if that instance never comes back.
func TestNameTakeOverLeavesLiveLeases(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := newDB(t)
	a, err := OpenAs(ctx, url, Identity{Name: "dup", Origin: "host1:/home/a", Lease: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	addTask(t, a, "web", "task")
	task := claimLeased(t, a, "web", 1, time.Minute)
	if err := a.SaveSession(ctx, supervisor.SessionRecord{ID: task.ID + ".1", TaskID: task.ID, Kind: "work", PID: 7, State: "working", StartedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	// The name went to B's first process while A was away (A's lease on
	// the task runs yet: A claimed it from a board that had not noticed),
	// and B restarts.
	if _, err := a.pool.Exec(ctx, `UPDATE stations SET last_seen = clock_timestamp() - interval '1 hour',
	instance = 'b-before', origin = 'host2:/home/b' WHERE name = 'dup'`); err != nil {
		t.Fatal(err)
	}
	b, err := OpenAs(ctx, url, Identity{Name: "dup", Origin: "host2:/home/b", Lease: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	if got := b.Held(); len(got) != 0 {
		t.Errorf("B took over %v, leases a live instance holds", got)
	}
	if recs, err := b.Sessions(ctx, true); err != nil || len(recs) != 0 {
		t.Errorf("B lists %+v (%v): sessions a live instance runs", recs, err)
	}
}
