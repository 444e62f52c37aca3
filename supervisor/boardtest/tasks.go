package boardtest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

func testAddTask(t *testing.T, b supervisor.Board) {
	before := time.Now()
	got, err := b.AddTask(context.Background(), supervisor.NewTask{Project: "web", Title: "fix login", Body: "the body"})
	if err != nil {
		t.Fatal(err)
	}
	after := time.Now()
	if got.ID == "" || got.Project != "web" || got.Title != "fix login" || got.Body != "the body" {
		t.Errorf("AddTask = %+v", got)
	}
	if got.State != supervisor.TaskTodo || got.Attempt != 1 || got.Reason != "" || got.Summary != "" || len(got.Notes) != 0 {
		t.Errorf("new task = %+v, want todo, attempt 1, no reason, summary or notes", got)
	}
	checkStamp(t, "CreatedAt", got.CreatedAt, before, after)
	if !sameTime(got.UpdatedAt, got.CreatedAt) {
		t.Errorf("UpdatedAt %v != CreatedAt %v", got.UpdatedAt, got.CreatedAt)
	}
	// What AddTask returned is exactly what the board keeps.
	sameTask(t, "Task after AddTask", get(t, b, got.ID), got)
}

func testAddTaskIDs(t *testing.T, b supervisor.Board) {
	for i := 1; i <= 12; i++ {
		got := add(t, b, "p", fmt.Sprint("task ", i))
		if want := fmt.Sprint("t", i); got.ID != want {
			t.Fatalf("task %d got id %q, want %q", i, got.ID, want)
		}
	}
}

func testAddTaskRejectsEmpty(t *testing.T, b supervisor.Board) {
	for _, nt := range []supervisor.NewTask{{Title: "no project"}, {Project: "p"}} {
		if got, err := b.AddTask(context.Background(), nt); err == nil {
			t.Errorf("AddTask(%+v) = %+v, want an error", nt, got)
		}
	}
}

func testTaskNotFound(t *testing.T, b supervisor.Board) {
	add(t, b, "p", "one")
	ctx := context.Background()
	for _, id := range []string{"t2", "t0", "t01", "x1", "1", "", "t-1"} {
		if _, err := b.Task(ctx, id); !errors.Is(err, supervisor.ErrNotFound) {
			t.Errorf("Task(%q) err = %v, want ErrNotFound", id, err)
		}
		if _, err := b.History(ctx, id); !errors.Is(err, supervisor.ErrNotFound) {
			t.Errorf("History(%q) err = %v, want ErrNotFound", id, err)
		}
	}
}

func testTasksFilter(t *testing.T, b supervisor.Board) {
	ctx := context.Background()
	a1 := add(t, b, "a", "a1")
	b1 := add(t, b, "b", "b1")
	a2 := add(t, b, "a", "a2")
	b2 := add(t, b, "b", "b2")
	// Moving a task must not change its place: oldest is by creation.
	a1 = move(t, b, a1.ID, supervisor.Move{From: from(supervisor.TaskTodo), To: supervisor.TaskWorking})
	b2 = move(t, b, b2.ID, supervisor.Move{From: from(supervisor.TaskTodo), To: supervisor.TaskWorking})

	for _, c := range []struct {
		f    supervisor.TaskFilter
		want []supervisor.Task
	}{
		{supervisor.TaskFilter{}, []supervisor.Task{a1, b1, a2, b2}},
		{supervisor.TaskFilter{Project: "a"}, []supervisor.Task{a1, a2}},
		{supervisor.TaskFilter{State: supervisor.TaskTodo}, []supervisor.Task{b1, a2}},
		{supervisor.TaskFilter{State: supervisor.TaskWorking, Project: "b"}, []supervisor.Task{b2}},
		{supervisor.TaskFilter{State: supervisor.TaskDone}, nil},
		{supervisor.TaskFilter{Project: "none"}, nil},
		// Pages: a limit, and the next page after the last id.
		{supervisor.TaskFilter{Limit: 3}, []supervisor.Task{a1, b1, a2}},
		{supervisor.TaskFilter{Limit: 3, After: a2.ID}, []supervisor.Task{b2}},
		{supervisor.TaskFilter{Project: "b", After: b1.ID}, []supervisor.Task{b2}},
		{supervisor.TaskFilter{State: supervisor.TaskTodo, Limit: 1, After: a1.ID}, []supervisor.Task{b1}},
		// Newest first, and its pages go towards older tasks.
		{supervisor.TaskFilter{Newest: true}, []supervisor.Task{b2, a2, b1, a1}},
		{supervisor.TaskFilter{Newest: true, Limit: 2}, []supervisor.Task{b2, a2}},
		{supervisor.TaskFilter{Newest: true, Limit: 2, After: a2.ID}, []supervisor.Task{b1, a1}},
		{supervisor.TaskFilter{Newest: true, Project: "a", Limit: 1}, []supervisor.Task{a2}},
	} {
		got, err := b.Tasks(ctx, c.f)
		if err != nil {
			t.Fatalf("Tasks(%+v): %v", c.f, err)
		}
		if len(got) != len(c.want) {
			t.Errorf("Tasks(%+v) = %d tasks %v, want %d", c.f, len(got), ids(got), len(c.want))
			continue
		}
		for i := range got {
			sameTask(t, fmt.Sprintf("Tasks(%+v)[%d]", c.f, i), got[i], c.want[i])
		}
	}
}

// testCountTasks: a board that counts (both stores) agrees with a listing,
// and a paging cursor that is no task id is refused as bad input.
func testCountTasks(t *testing.T, b supervisor.Board) {
	ctx := context.Background()
	c, ok := b.(supervisor.TaskCounter)
	if !ok {
		t.Skip("this board does not count")
	}
	for i := range 5 {
		add(t, b, "a", fmt.Sprint("a", i))
	}
	w := add(t, b, "b", "w")
	move(t, b, w.ID, supervisor.Move{From: from(supervisor.TaskTodo), To: supervisor.TaskWorking})
	got, err := c.CountTasks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got[supervisor.TaskTodo] != 5 || got[supervisor.TaskWorking] != 1 || got[supervisor.TaskDone] != 0 || len(got) != 2 {
		t.Errorf("CountTasks = %v, want todo 5, working 1", got)
	}
	if _, err := b.Tasks(ctx, supervisor.TaskFilter{After: "nope"}); !errors.Is(err, supervisor.ErrInvalid) {
		t.Errorf("Tasks after a bad cursor: %v, want ErrInvalid", err)
	}
}

func ids(ts []supervisor.Task) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.ID)
	}
	return out
}
