package boardtest

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
)

// An imported task keeps its issue, reads it back from every query, and a
// second task for the same issue is refused, even when two add it at once.
func testExternal(t *testing.T, b supervisor.Board) {
	ctx := context.Background()
	ext := &supervisor.External{Kind: "github", ID: "acme/web#12", URL: "https://github.com/acme/web/issues/12"}
	got, err := b.AddTask(ctx, supervisor.NewTask{Project: "web", Title: "fix login", Body: "b", External: ext})
	if err != nil {
		t.Fatal(err)
	}
	if got.External == nil || *got.External != *ext {
		t.Fatalf("AddTask external = %+v, want %+v", got.External, ext)
	}
	sameTask(t, "Task after AddTask", get(t, b, got.ID), got)
	if g := get(t, b, got.ID); g.External == nil || *g.External != *ext {
		t.Fatalf("Task external = %+v", g.External)
	}
	plain := add(t, b, "web", "by hand")
	if plain.External != nil {
		t.Fatalf("a task added by hand has external %+v", plain.External)
	}
	list, err := b.Tasks(ctx, supervisor.TaskFilter{Project: "web"})
	if err != nil || len(list) != 2 || list[0].External == nil || list[0].External.ID != ext.ID || list[1].External != nil {
		t.Fatalf("Tasks = %+v, %v", list, err)
	}
	if _, err := b.AddTask(ctx, supervisor.NewTask{Project: "web", Title: "again", External: ext}); !supervisor.IsDuplicateExternal(err) || !errors.Is(err, supervisor.ErrConflict) {
		t.Fatalf("second AddTask for one issue: %v, want ErrDuplicateExternal", err)
	}
	// The same id of another kind is another issue.
	other := &supervisor.External{Kind: "linear", ID: ext.ID}
	if _, err := b.AddTask(ctx, supervisor.NewTask{Project: "web", Title: "linear", External: other}); err != nil {
		t.Fatalf("same id, other kind: %v", err)
	}
	race := &supervisor.External{Kind: "linear", ID: "ENG-1"}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			_, errs[i] = b.AddTask(ctx, supervisor.NewTask{Project: "web", Title: "raced", External: race})
		})
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case !supervisor.IsDuplicateExternal(err):
			t.Errorf("racing AddTask: %v, want ErrDuplicateExternal", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d racing AddTasks for one issue won, want 1", won)
	}
}

// EditTask changes a todo task's title and body, moves UpdatedAt on, and
// refuses a task that has started.
func testEditTask(t *testing.T, b supervisor.Board) {
	ed, ok := b.(supervisor.TaskEditor)
	if !ok {
		t.Fatal("the board does not edit tasks (supervisor.TaskEditor)")
	}
	ctx := context.Background()
	a := add(t, b, "web", "old")
	got, err := ed.EditTask(ctx, a.ID, "new", "new body")
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "new" || got.Body != "new body" || !got.UpdatedAt.After(a.UpdatedAt) {
		t.Fatalf("EditTask = %+v (was %+v)", got, a)
	}
	sameTask(t, "Task after EditTask", get(t, b, a.ID), got)
	if _, err := ed.EditTask(ctx, a.ID, " ", ""); !errors.Is(err, supervisor.ErrInvalid) {
		t.Fatalf("EditTask to an empty title: %v, want ErrInvalid", err)
	}
	move(t, b, a.ID, supervisor.Move{From: from(supervisor.TaskTodo), To: supervisor.TaskWorking})
	var se *supervisor.StateError
	if _, err := ed.EditTask(ctx, a.ID, "newer", ""); !errors.As(err, &se) {
		t.Fatalf("EditTask of a working task: %v, want a StateError", err)
	}
	if _, err := ed.EditTask(ctx, "t999", "x", ""); !errors.Is(err, supervisor.ErrNotFound) {
		t.Fatalf("EditTask of no task: %v, want ErrNotFound", err)
	}
}
