package pgstore

import (
	"context"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// next waits for the next change on ch, failing t after a while.
func next(t *testing.T, ch <-chan Change) Change {
	t.Helper()
	select {
	case c, ok := <-ch:
		if !ok {
			t.Fatal("Listen's channel closed")
		}
		return c
	case <-time.After(30 * time.Second):
		t.Fatal("no change delivered")
	}
	panic("unreachable")
}

// A tray on one machine hears of a move made by a station on another.
func TestListen(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url := newDB(t)
	tray, station := openStore(t, url, "tray"), openStore(t, url, "st")
	tray.listenRetry = 10 * time.Millisecond // set before the listener reads it
	ch, err := tray.Listen(ctx)
	if err != nil {
		t.Fatal(err)
	}
	task := addTask(t, station, "web", "one")
	if c := next(t, ch); c.TaskID != task.ID || c.From != "" || c.To != supervisor.TaskTodo || c.Station != "st" || !c.At.Equal(task.CreatedAt) || c.Gap {
		t.Errorf("AddTask's change = %+v", c)
	}
	// A refused move announces nothing: the next change is the claim.
	if _, err := station.Move(ctx, task.ID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskReview}, To: supervisor.TaskDone}); err == nil {
		t.Fatal("a move from the wrong state succeeded")
	}
	claimed := claimLeased(t, station, "web", 1, time.Minute)
	if c := next(t, ch); c.TaskID != task.ID || c.From != supervisor.TaskTodo || c.To != supervisor.TaskWorking || c.Actor != "st" || !c.At.Equal(claimed.UpdatedAt) {
		t.Errorf("ClaimLeased's change = %+v", c)
	}
	moved, err := station.Move(ctx, task.ID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskWorking}, To: supervisor.TaskReview, Actor: "agent"})
	if err != nil {
		t.Fatal(err)
	}
	want := Change{TaskID: task.ID, From: supervisor.TaskWorking, To: supervisor.TaskReview, Station: "st", Actor: "agent", At: moved.UpdatedAt}
	if c := next(t, ch); c != want {
		t.Errorf("Move's change = %+v, want %+v", c, want)
	}

	// The server drops the connection: Listen reconnects, says changes
	// may have been missed, and goes on.
	if n := queryInt(t, station, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
WHERE datname = current_database() AND query = 'LISTEN `+channel+`'`); n != 1 {
		t.Fatalf("terminated %d listening connections, want 1", n)
	}
	if c := next(t, ch); !c.Gap || c.TaskID != "" {
		t.Errorf("first change after the drop = %+v, want a bare Gap", c)
	}
	if _, err := station.Move(ctx, task.ID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskReview}, To: supervisor.TaskDone}); err != nil {
		t.Fatal(err)
	}
	if c := next(t, ch); c.TaskID != task.ID || c.To != supervisor.TaskDone || c.Gap {
		t.Errorf("change after the reconnect = %+v", c)
	}

	cancel()
	for range ch {
	}
}

// Closing the store ends its listeners.
func TestListenEndsAtClose(t *testing.T) {
	t.Parallel()
	s, err := Open(context.Background(), newDB(t), "tray")
	if err != nil {
		t.Fatal(err)
	}
	ch, err := s.Listen(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	select {
	case _, ok := <-ch:
		if ok {
			t.Error("a change arrived after Close")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Listen's channel still open after Close")
	}
}
