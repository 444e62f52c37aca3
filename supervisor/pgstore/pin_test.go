package pgstore

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// A task pinned to station A is claimed by A only, through moves and
// requeues, until A unpins it; B cannot lift A's pin, a person (anyStation)
// can.
func TestPinnedTaskIsClaimedByItsStationOnly(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := newDB(t)
	a, b := openStore(t, url, "A"), openStore(t, url, "B")
	task := addTask(t, a, "web", "pinned")
	claimLeased(t, a, "web", 2, time.Minute)
	if err := a.Pin(ctx, task.ID); err != nil {
		t.Fatal(err)
	}
	requeue := supervisor.Move{From: []supervisor.TaskState{supervisor.TaskWorking, supervisor.TaskBlocked}, To: supervisor.TaskTodo, BumpAttempt: true, Actor: "test"}
	if _, err := a.Move(ctx, task.ID, requeue); err != nil {
		t.Fatal(err)
	}
	later := addTask(t, a, "web", "free")
	if got := claimLeased(t, b, "web", 2, time.Minute); got.ID != later.ID {
		t.Fatalf("B claimed %s, want the unpinned %s", got.ID, later.ID)
	}
	if _, ok, err := b.ClaimLeased(ctx, "web", 2, time.Minute); ok || err != nil {
		t.Fatalf("B claimed the task pinned to A: %v, %v", ok, err)
	}
	if got, err := b.Task(ctx, task.ID); err != nil || got.Pinned != "A" || got.State != supervisor.TaskTodo {
		t.Fatalf("task = %+v, %v; want todo, pinned to A", got, err)
	}
	if err := b.Unpin(ctx, task.ID, false); err != nil {
		t.Fatal(err)
	}
	if got, _ := b.Task(ctx, task.ID); got.Pinned != "A" {
		t.Fatal("B lifted A's pin")
	}
	if got := claimLeased(t, a, "web", 2, time.Minute); got.ID != task.ID || got.Pinned != "A" {
		t.Fatalf("A claimed %+v, want its pinned task", got)
	}
	if _, err := a.Move(ctx, task.ID, requeue); err != nil {
		t.Fatal(err)
	}
	if err := b.Unpin(ctx, task.ID, true); err != nil {
		t.Fatal(err)
	}
	if got := claimLeased(t, b, "web", 2, time.Minute); got.ID != task.ID || got.Pinned != "" {
		t.Fatalf("B claimed %+v after the pin was lifted", got)
	}
	if err := a.Pin(ctx, "t999"); !errors.Is(err, supervisor.ErrNotFound) {
		t.Fatalf("Pin of a missing task: %v", err)
	}
}
