package boardtest

import (
	"context"
	"fmt"
	"maps"
	"sync"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
)

// testCountsFollowWrites: a board that counts keeps its counts exact
// through every write that adds a task or changes its state — adds by
// hand and from an issue, a refused duplicate import, claims (one after
// another and racing), moves along every column, a refused move, a move
// within a column, an edit — each count compared with one made from the
// whole listing at that moment.
func testCountsFollowWrites(t *testing.T, b supervisor.Board) {
	ctx := context.Background()
	c, ok := b.(supervisor.TaskCounter)
	if !ok {
		t.Skip("this board does not count")
	}
	step := func(what string) {
		t.Helper()
		got, err := c.CountTasks(ctx)
		if err != nil {
			t.Fatalf("after %s: CountTasks: %v", what, err)
		}
		all, err := b.Tasks(ctx, supervisor.TaskFilter{})
		if err != nil {
			t.Fatal(err)
		}
		want := map[supervisor.TaskState]int{}
		for _, task := range all {
			want[task.State]++
		}
		if !maps.Equal(got, want) {
			t.Fatalf("after %s: CountTasks = %v, the listing counts %v", what, got, want)
		}
	}
	step("nothing")
	var ts []supervisor.Task
	for i := range 6 {
		ts = append(ts, add(t, b, fmt.Sprint("p", i%2), fmt.Sprint("t", i)))
	}
	step("adds")
	ext := &supervisor.External{Kind: "github", ID: "acme/web#1", URL: "https://github.com/acme/web/issues/1"}
	imp, err := b.AddTask(ctx, supervisor.NewTask{Project: "p0", Title: "imported", External: ext})
	if err != nil {
		t.Fatal(err)
	}
	step("an import")
	if _, err := b.AddTask(ctx, supervisor.NewTask{Project: "p0", Title: "again", External: ext}); err == nil {
		t.Fatal("a second import of one issue was added")
	}
	step("a refused import")
	w, ok, err := b.Claim(ctx, "p0", "station")
	if err != nil || !ok {
		t.Fatalf("Claim: %v %v", ok, err)
	}
	step("a claim")
	move(t, b, w.ID, supervisor.Move{From: from(supervisor.TaskWorking), To: supervisor.TaskReview, Summary: "s"})
	step("working → review")
	move(t, b, w.ID, supervisor.Move{From: from(supervisor.TaskReview), To: supervisor.TaskReview, Note: "again"})
	step("a move within review")
	move(t, b, w.ID, supervisor.Move{From: from(supervisor.TaskReview), To: supervisor.TaskDone})
	step("review → done")
	move(t, b, ts[1].ID, supervisor.Move{From: from(supervisor.TaskTodo), To: supervisor.TaskWorking})
	move(t, b, ts[1].ID, supervisor.Move{From: from(supervisor.TaskWorking), To: supervisor.TaskBlocked, Reason: "stuck"})
	step("todo → working → blocked")
	if _, err := b.Move(ctx, ts[1].ID, supervisor.Move{From: from(supervisor.TaskWorking), To: supervisor.TaskDone}); err == nil {
		t.Fatal("a move from the wrong state passed")
	}
	step("a refused move")
	move(t, b, ts[1].ID, supervisor.Move{From: from(supervisor.TaskBlocked), To: supervisor.TaskTodo, BumpAttempt: true})
	step("blocked → todo (requeue)")
	move(t, b, imp.ID, supervisor.Move{From: from(supervisor.TaskTodo), To: supervisor.TaskCancelled})
	step("todo → cancelled")
	if ed, ok := b.(supervisor.TaskEditor); ok {
		if _, err := ed.EditTask(ctx, ts[3].ID, "edited", "body"); err != nil {
			t.Fatal(err)
		}
		step("an edit")
	}
	// Claims racing on one project: each task is claimed once, and every
	// claim is counted.
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if _, _, err := b.Claim(ctx, "p1", "station"); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	step("racing claims")
}

// Rows is what database/sql's and pgx's query results have in common.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// SameCounts fails t unless got, a board's counts per state, are the
// (state, count) rows of a fresh GROUP BY over its tasks; it closes
// nothing (the caller owns rows).
func SameCounts(t testing.TB, what string, got map[supervisor.TaskState]int, rows Rows) {
	t.Helper()
	want := map[supervisor.TaskState]int{}
	for rows.Next() {
		var st string
		var n int
		if err := rows.Scan(&st, &n); err != nil {
			t.Fatal(err)
		}
		want[supervisor.TaskState(st)] = n
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(got, want) {
		t.Fatalf("after %s: CountTasks = %v, GROUP BY counts %v", what, got, want)
	}
}
