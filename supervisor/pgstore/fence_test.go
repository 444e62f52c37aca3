package pgstore

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// expire makes every lease of station look expired, as if it had stopped
// renewing a while ago.
func expire(t *testing.T, s *Store, station string) {
	t.Helper()
	if _, err := s.pool.Exec(context.Background(),
		"UPDATE leases SET expires_at = clock_timestamp() - interval '10 millisecond' WHERE station = $1", station); err != nil {
		t.Fatal(err)
	}
}

// An expired lease that nobody reaped yet still takes its slot, and its
// holder cannot renew it: a project's slots are never leased twice over.
func TestExpiredLeaseNeitherFreedNorRevived(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := newDB(t)
	a, b := openStore(t, url, "A"), openStore(t, url, "B")
	for range 4 {
		addTask(t, a, "web", "task")
	}
	one := claimLeased(t, a, "web", 2, time.Minute)
	claimLeased(t, a, "web", 2, time.Minute)
	expire(t, a, "A")
	for range 2 {
		if task, ok, err := b.ClaimLeased(ctx, "web", 2, time.Minute); ok || err != nil {
			t.Fatalf("B claimed %s in a slot an unreaped lease still holds (err %v)", task.ID, err)
		}
	}
	lost, err := a.Renew(ctx, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if len(lost) != 2 {
		t.Errorf("A's Renew of expired leases lost %v, want both", lost)
	}
	if n := queryInt(t, a, "SELECT count(*) FROM leases WHERE expires_at > clock_timestamp()"); n != 0 {
		t.Errorf("%d live leases after A renewed expired ones, want 0: an expired lease is never revived", n)
	}
	// A write under a lease nobody took over still carries its epoch and
	// lands (a completion queued during an outage); the slot comes back.
	if _, err := a.Move(ctx, one.ID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskWorking}, To: supervisor.TaskDone}); err != nil {
		var le *LeaseError
		if !errors.As(err, &le) {
			t.Fatalf("A's late completion: %v", err)
		}
	}
}

// Every lease carries an epoch that grows with every claim; a move made
// under an epoch that was reaped and let again is refused, even when the
// same station holds the new lease.
func TestLeaseEpochFences(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := newDB(t)
	a, b := openStore(t, url, "A"), openStore(t, url, "B")
	task := addTask(t, a, "web", "task")
	claimLeased(t, a, "web", 1, time.Minute)
	first := a.Epoch(task.ID)
	if first == 0 {
		t.Fatal("a claimed lease has no epoch")
	}
	expire(t, a, "A")
	if _, err := b.Reap(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Move(ctx, task.ID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskBlocked}, To: supervisor.TaskTodo}); err != nil {
		t.Fatal(err)
	}
	// A (its old epoch) must not write over the new lease.
	claimLeased(t, b, "web", 1, time.Minute)
	if e := b.Epoch(task.ID); e <= first {
		t.Fatalf("new lease epoch %d, want above %d", e, first)
	}
	_, err := a.Move(ctx, task.ID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskWorking}, To: supervisor.TaskDone})
	if !errors.Is(err, supervisor.ErrConflict) {
		t.Fatalf("A's move under a reaped lease: %v, want a conflict", err)
	}
}

// Two live stations under one name: the second, from another machine or
// home, is refused with a sentence saying how to name stations, and the
// first keeps its lease; the same station restarted (same origin) takes its
// name and leases back at once.
func TestStationNameTakenByLiveInstance(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := newDB(t)
	first, err := OpenAs(ctx, url, Identity{Name: "A", Origin: "host1:/home/a", Lease: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { first.Close() })
	addTask(t, first, "web", "task")
	task := claimLeased(t, first, "web", 1, time.Minute)

	_, err = OpenAs(ctx, url, Identity{Name: "A", Origin: "host2:/home/a", Lease: time.Minute})
	if !errors.Is(err, ErrNameInUse) || !strings.Contains(err.Error(), `station = "NAME"`) {
		t.Fatalf("second live station named A: err = %v, want a refusal that says how to name it", err)
	}
	if lost, err := first.Renew(ctx, time.Minute); err != nil || len(lost) != 0 {
		t.Fatalf("first station's Renew after the refused one = %v, %v", lost, err)
	}

	again, err := OpenAs(ctx, url, Identity{Name: "A", Origin: "host1:/home/a", Lease: time.Minute})
	if err != nil {
		t.Fatalf("same station restarted: %v", err)
	}
	t.Cleanup(func() { again.Close() })
	if got := again.Held(); !slices.Equal(got, []string{task.ID}) {
		t.Fatalf("restarted station holds %v, want %s", got, task.ID)
	}
	// The old process, if it still runs, is not station A any more.
	if lost, err := first.Renew(ctx, time.Minute); !errors.Is(err, supervisor.ErrNameTaken) {
		t.Fatalf("the replaced process's Renew = %v, %v; want its name taken", lost, err)
	}
}

// The shared sessions table keeps a session token's hash, never the token.
func TestSessionTokenStoredHashed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openStore(t, newDB(t), "A")
	task := addTask(t, s, "web", "task")
	if err := s.SaveSession(ctx, supervisor.SessionRecord{ID: "t1.1", TaskID: task.ID, Kind: "work", State: "working",
		StartedAt: time.Now(), Token: "the-secret-token"}); err != nil {
		t.Fatal(err)
	}
	var stored string
	if err := s.pool.QueryRow(ctx, "SELECT token FROM sessions WHERE id = 't1.1'").Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stored, "the-secret-token") || stored != supervisor.HashToken("the-secret-token") {
		t.Fatalf("sessions.token = %q, want the token's hash", stored)
	}
}
