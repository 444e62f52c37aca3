package boardtest

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
)

func testClaim(t *testing.T, b supervisor.Board) {
	ctx := context.Background()
	other := add(t, b, "other", "older task of another project")
	first := add(t, b, "web", "first")
	second := add(t, b, "web", "second")
	// A requeued task keeps its place: oldest by creation, not by move.
	move(t, b, first.ID, supervisor.Move{From: from(supervisor.TaskTodo), To: supervisor.TaskBlocked, Reason: "wedged"})
	first = move(t, b, first.ID, supervisor.Move{From: from(supervisor.TaskBlocked), To: supervisor.TaskTodo, Reason: "requeued", BumpAttempt: true})

	got, ok, err := b.Claim(ctx, "web", "station")
	if err != nil || !ok {
		t.Fatalf("Claim = %+v, %v, %v", got, ok, err)
	}
	want := first
	want.State = supervisor.TaskWorking
	want.Reason = ""
	want.UpdatedAt = got.UpdatedAt
	sameTask(t, "first Claim", got, want)
	if !got.UpdatedAt.After(first.UpdatedAt) {
		t.Errorf("UpdatedAt %v did not advance past %v", got.UpdatedAt, first.UpdatedAt)
	}
	sameTask(t, "Task after Claim", get(t, b, got.ID), got)
	h := history(t, b, got.ID)
	wantTr := supervisor.Transition{TaskID: first.ID, From: supervisor.TaskTodo, To: supervisor.TaskWorking, Attempt: 2, Actor: "station", At: got.UpdatedAt}
	if last := h[len(h)-1]; !sameTransition(last, wantTr) {
		t.Errorf("Claim's history row = %+v, want %+v", last, wantTr)
	}

	got, ok, err = b.Claim(ctx, "web", "station")
	if err != nil || !ok || got.ID != second.ID {
		t.Fatalf("second Claim = %+v, %v, %v; want %s", got, ok, err, second.ID)
	}
	if _, ok, err := b.Claim(ctx, "web", "station"); err != nil || ok {
		t.Fatalf("third Claim ok = %v, err = %v; want none left", ok, err)
	}
	if got := get(t, b, other.ID); got.State != supervisor.TaskTodo {
		t.Errorf("claiming web moved %s of project other to %s", other.ID, got.State)
	}
}

func testClaimNone(t *testing.T, b supervisor.Board) {
	ctx := context.Background()
	if got, ok, err := b.Claim(ctx, "web", "station"); err != nil || ok {
		t.Fatalf("Claim on an empty board = %+v, %v, %v", got, ok, err)
	}
	task := add(t, b, "web", "working already")
	move(t, b, task.ID, supervisor.Move{From: from(supervisor.TaskTodo), To: supervisor.TaskWorking})
	if got, ok, err := b.Claim(ctx, "web", "station"); err != nil || ok {
		t.Fatalf("Claim with no todo task = %+v, %v, %v", got, ok, err)
	}
}

// Concurrent claimers on one board never get the same task, and together
// claim every task once.
func testClaimRace(t *testing.T, b supervisor.Board) {
	const tasks, claimers = 50, 20
	for i := range tasks {
		add(t, b, "web", fmt.Sprint("task ", i))
	}
	decoy := add(t, b, "other", "not web's")

	var (
		mu      sync.Mutex
		claimed = map[string]int{}
		errs    []error
		wg      sync.WaitGroup
	)
	start := make(chan struct{})
	for i := range claimers {
		wg.Go(func() {
			<-start
			for {
				got, ok, err := b.Claim(context.Background(), "web", fmt.Sprint("claimer ", i))
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				} else if ok {
					claimed[got.ID]++
				}
				mu.Unlock()
				if err != nil || !ok {
					return
				}
			}
		})
	}
	close(start)
	wg.Wait()
	for _, err := range errs {
		t.Errorf("Claim: %v", err)
	}
	if len(claimed) != tasks {
		t.Errorf("%d tasks claimed, want %d", len(claimed), tasks)
	}
	for id, n := range claimed {
		if n != 1 {
			t.Errorf("%s claimed %d times", id, n)
		}
		if h := history(t, b, id); len(h) != 2 {
			t.Errorf("%s has %d history rows, want 2", id, len(h))
		}
	}
	if _, ok := claimed[decoy.ID]; ok {
		t.Errorf("%s of another project was claimed", decoy.ID)
	}
	working, err := b.Tasks(context.Background(), supervisor.TaskFilter{State: supervisor.TaskWorking})
	if err != nil {
		t.Fatal(err)
	}
	if len(working) != tasks {
		t.Errorf("%d tasks working, want %d", len(working), tasks)
	}
}
