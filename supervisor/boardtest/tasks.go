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

func ids(ts []supervisor.Task) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.ID)
	}
	return out
}
