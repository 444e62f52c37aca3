package boardtest

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

func testMove(t *testing.T, b supervisor.Board) {
	task := add(t, b, "p", "one")
	task = move(t, b, task.ID, supervisor.Move{From: from(supervisor.TaskTodo), To: supervisor.TaskWorking, Actor: "station"})
	prev := task

	before := time.Now()
	got := move(t, b, task.ID, supervisor.Move{
		From:        from(supervisor.TaskReview, supervisor.TaskWorking),
		To:          supervisor.TaskBlocked,
		Reason:      "idle 10m: console, commits, cpu, board quiet",
		Summary:     "half done",
		Note:        "first note",
		Actor:       "watchdog",
		BumpAttempt: true,
	})
	after := time.Now()
	want := prev
	want.State = supervisor.TaskBlocked
	want.Reason = "idle 10m: console, commits, cpu, board quiet"
	want.Summary = "half done"
	want.Notes = []string{"first note"}
	want.Attempt = 2
	want.UpdatedAt = got.UpdatedAt
	sameTask(t, "Move", got, want)
	if !got.UpdatedAt.After(prev.UpdatedAt) {
		t.Errorf("UpdatedAt %v did not advance past %v", got.UpdatedAt, prev.UpdatedAt)
	}
	checkStamp(t, "UpdatedAt", got.UpdatedAt, before, after)
	sameTask(t, "Task after Move", get(t, b, task.ID), got)

	h := history(t, b, task.ID)
	last := h[len(h)-1]
	wantTr := supervisor.Transition{TaskID: task.ID, From: supervisor.TaskWorking, To: supervisor.TaskBlocked,
		Attempt: 2, Reason: want.Reason, Actor: "watchdog", At: got.UpdatedAt}
	if !sameTransition(last, wantTr) {
		t.Errorf("last history row = %+v, want %+v", last, wantTr)
	}

	// Reason is replaced (an empty one clears it); an empty Summary keeps
	// the old one; Notes accumulate.
	got = move(t, b, task.ID, supervisor.Move{From: from(supervisor.TaskBlocked), To: supervisor.TaskTodo, Note: "second note", Actor: "cli"})
	if got.Reason != "" || got.Summary != "half done" || !slices.Equal(got.Notes, []string{"first note", "second note"}) || got.Attempt != 2 {
		t.Errorf("after requeue = %+v", got)
	}
	sameTask(t, "Task after second Move", get(t, b, task.ID), got)
}

func testMoveKeepsSummary(t *testing.T, b supervisor.Board) {
	task := add(t, b, "p", "one")
	task = move(t, b, task.ID, supervisor.Move{From: from(supervisor.TaskTodo), To: supervisor.TaskReview, Summary: "did it", Reason: "r"})
	got := move(t, b, task.ID, supervisor.Move{From: from(supervisor.TaskReview), To: supervisor.TaskDone, Reason: "approved"})
	if got.Summary != "did it" || got.Reason != "approved" || got.Attempt != 1 || len(got.Notes) != 0 {
		t.Errorf("after done = %+v", got)
	}
}

func testMoveConflict(t *testing.T, b supervisor.Board) {
	task := add(t, b, "p", "one")
	_, err := b.Move(context.Background(), task.ID, supervisor.Move{
		From: from(supervisor.TaskWorking, supervisor.TaskReview), To: supervisor.TaskDone, Reason: "nope", Note: "n"})
	if !errors.Is(err, supervisor.ErrConflict) {
		t.Fatalf("Move from the wrong state err = %v, want ErrConflict", err)
	}
	var se *supervisor.StateError
	if !errors.As(err, &se) {
		t.Fatalf("err %v (%T) is not a *StateError", err, err)
	}
	if se.ID != task.ID || se.Have != supervisor.TaskTodo || !slices.Equal(se.Want, from(supervisor.TaskWorking, supervisor.TaskReview)) {
		t.Errorf("StateError = %+v", se)
	}
	// A refused move changes nothing.
	sameTask(t, "Task after refused Move", get(t, b, task.ID), task)
	if h := history(t, b, task.ID); len(h) != 1 {
		t.Errorf("history has %d rows after a refused move, want 1", len(h))
	}
}

// A move for one run of a task (Move.Attempt) is refused once the task is
// on another: a late report of an ended run never settles the next one.
func testMoveAttemptFence(t *testing.T, b supervisor.Board) {
	task := add(t, b, "p", "one")
	task = move(t, b, task.ID, supervisor.Move{From: from(supervisor.TaskTodo), To: supervisor.TaskBlocked, Reason: "wedged"})
	task = move(t, b, task.ID, supervisor.Move{From: from(supervisor.TaskBlocked), To: supervisor.TaskWorking, BumpAttempt: true})
	_, err := b.Move(context.Background(), task.ID, supervisor.Move{From: from(supervisor.TaskWorking), To: supervisor.TaskDone, Summary: "late", Attempt: 1})
	var ae *supervisor.AttemptError
	if !errors.Is(err, supervisor.ErrConflict) || !errors.As(err, &ae) {
		t.Fatalf("Move for attempt 1 of a task on attempt 2: err = %v (%T), want an *AttemptError that is ErrConflict", err, err)
	}
	if ae.ID != task.ID || ae.Have != 2 || ae.Want != 1 {
		t.Errorf("AttemptError = %+v", ae)
	}
	sameTask(t, "Task after a refused late move", get(t, b, task.ID), task)
	if h := history(t, b, task.ID); len(h) != 3 {
		t.Errorf("history has %d rows after a refused move, want 3", len(h))
	}
	got := move(t, b, task.ID, supervisor.Move{From: from(supervisor.TaskWorking), To: supervisor.TaskDone, Summary: "on time", Attempt: 2})
	if got.State != supervisor.TaskDone || got.Summary != "on time" {
		t.Errorf("Move for the task's own attempt = %+v", got)
	}
}

func testMoveNotFound(t *testing.T, b supervisor.Board) {
	add(t, b, "p", "one")
	for _, id := range []string{"t9", "nope", ""} {
		_, err := b.Move(context.Background(), id, supervisor.Move{From: from(supervisor.TaskTodo), To: supervisor.TaskWorking})
		if !errors.Is(err, supervisor.ErrNotFound) {
			t.Errorf("Move(%q) err = %v, want ErrNotFound", id, err)
		}
	}
}

// A request no state satisfies is the caller's bug, not a race lost.
func testMoveBadRequest(t *testing.T, b supervisor.Board) {
	task := add(t, b, "p", "one")
	for _, m := range []supervisor.Move{
		{From: from(supervisor.TaskTodo), To: "limbo"},
		{To: supervisor.TaskWorking},
	} {
		_, err := b.Move(context.Background(), task.ID, m)
		if err == nil || errors.Is(err, supervisor.ErrConflict) {
			t.Errorf("Move(%+v) err = %v, want a non-conflict error", m, err)
		}
	}
	sameTask(t, "Task after bad Moves", get(t, b, task.ID), task)
}

// Racing movers from the same state: exactly one wins, the rest see the
// state the winner left.
func testMoveRace(t *testing.T, b supervisor.Board) {
	task := add(t, b, "p", "one")
	const movers = 20
	errs := make([]error, movers)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range movers {
		wg.Go(func() {
			<-start
			_, errs[i] = b.Move(context.Background(), task.ID, supervisor.Move{
				From: from(supervisor.TaskTodo), To: supervisor.TaskWorking, BumpAttempt: true, Actor: "racer"})
		})
	}
	close(start)
	wg.Wait()
	won := 0
	for _, err := range errs {
		var se *supervisor.StateError
		switch {
		case err == nil:
			won++
		case errors.As(err, &se) && errors.Is(err, supervisor.ErrConflict) && se.Have == supervisor.TaskWorking:
		default:
			t.Errorf("a losing mover got %v, want a StateError saying working", err)
		}
	}
	if won != 1 {
		t.Errorf("%d movers won, want exactly 1", won)
	}
	if got := get(t, b, task.ID); got.State != supervisor.TaskWorking || got.Attempt != 2 {
		t.Errorf("task after race = %+v, want working, attempt 2", got)
	}
	if h := history(t, b, task.ID); len(h) != 2 {
		t.Errorf("history has %d rows, want 2", len(h))
	}
}

func testHistory(t *testing.T, b supervisor.Board) {
	before := time.Now()
	task := add(t, b, "p", "one")
	other := add(t, b, "p", "other")
	m1 := move(t, b, task.ID, supervisor.Move{From: from(supervisor.TaskTodo), To: supervisor.TaskWorking, Actor: "station"})
	move(t, b, other.ID, supervisor.Move{From: from(supervisor.TaskTodo), To: supervisor.TaskCancelled, Actor: "cli"})
	m2 := move(t, b, task.ID, supervisor.Move{From: from(supervisor.TaskWorking), To: supervisor.TaskBlocked, Reason: "wedged", Actor: "watchdog"})
	m3 := move(t, b, task.ID, supervisor.Move{From: from(supervisor.TaskBlocked), To: supervisor.TaskTodo, Reason: "requeued", Actor: "cli", BumpAttempt: true})
	after := time.Now()

	want := []supervisor.Transition{
		{TaskID: task.ID, From: "", To: supervisor.TaskTodo, Attempt: 1, At: task.CreatedAt},
		{TaskID: task.ID, From: supervisor.TaskTodo, To: supervisor.TaskWorking, Attempt: 1, Actor: "station", At: m1.UpdatedAt},
		{TaskID: task.ID, From: supervisor.TaskWorking, To: supervisor.TaskBlocked, Attempt: 1, Reason: "wedged", Actor: "watchdog", At: m2.UpdatedAt},
		{TaskID: task.ID, From: supervisor.TaskBlocked, To: supervisor.TaskTodo, Attempt: 2, Reason: "requeued", Actor: "cli", At: m3.UpdatedAt},
	}
	got := history(t, b, task.ID)
	if len(got) != len(want) {
		t.Fatalf("history = %+v, want %d rows", got, len(want))
	}
	for i := range got {
		if !sameTransition(got[i], want[i]) {
			t.Errorf("history[%d] = %+v, want %+v", i, got[i], want[i])
		}
		checkStamp(t, "history At", got[i].At, before, after)
		if i > 0 && got[i].At.Before(got[i-1].At) {
			t.Errorf("history[%d].At %v before the row above it %v", i, got[i].At, got[i-1].At)
		}
	}
	if h := history(t, b, other.ID); len(h) != 2 || h[1].To != supervisor.TaskCancelled {
		t.Errorf("other task's history = %+v", h)
	}
}

func sameTransition(a, b supervisor.Transition) bool {
	if !sameTime(a.At, b.At) {
		return false
	}
	a.At, b.At = time.Time{}, time.Time{}
	return a == b
}
