package store

import (
	"context"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// A clock that stands still or steps back still moves updated_at forward,
// and history stays in order.
func TestUpdatedAtStrictlyIncreases(t *testing.T) {
	s := openTemp(t)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	s.now = func() time.Time { return now }
	ctx := context.Background()
	task, err := s.AddTask(ctx, supervisor.NewTask{Project: "p", Title: "x"})
	if err != nil {
		t.Fatal(err)
	}
	prev := task.UpdatedAt
	for i, step := range []time.Duration{0, 0, -time.Hour, time.Hour + time.Second} {
		now = now.Add(step)
		from, to := supervisor.TaskTodo, supervisor.TaskWorking
		if i%2 == 1 {
			from, to = to, from
		}
		got, err := s.Move(ctx, task.ID, supervisor.Move{From: []supervisor.TaskState{from}, To: to})
		if err != nil {
			t.Fatal(err)
		}
		if !got.UpdatedAt.After(prev) {
			t.Fatalf("move %d: UpdatedAt %v not after %v", i, got.UpdatedAt, prev)
		}
		prev = got.UpdatedAt
	}
	if !prev.Equal(time.Date(2026, 3, 1, 12, 0, 1, 0, time.UTC)) {
		t.Errorf("after the clock moved past, UpdatedAt = %v, want the clock's time", prev)
	}
}
