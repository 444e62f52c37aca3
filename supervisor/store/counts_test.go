package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/boardtest"
)

// sameCounts fails t unless the board's counts per state are those a fresh
// GROUP BY over the tasks finds.
func sameCounts(t *testing.T, s *Store, what string) {
	t.Helper()
	ctx := context.Background()
	got, err := s.CountTasks(ctx)
	if err != nil {
		t.Fatalf("after %s: CountTasks: %v", what, err)
	}
	rows, err := s.db.QueryContext(ctx, "SELECT state, COUNT(*) FROM tasks GROUP BY state")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	boardtest.SameCounts(t, what, got, rows)
}

// The counts follow writes made in SQL on the file, not only the board's
// own: inserts, a rolled-back insert, bulk and single state changes, an
// update that leaves the state, deletes of some and of all.
func TestCountsFollowSQL(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := s.db.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	sameCounts(t, s, "nothing")
	states := []string{"todo", "working", "review", "blocked", "done", "cancelled", "todo", "done"}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 80 {
		if _, err := tx.ExecContext(ctx, "INSERT INTO tasks (project, title, state, created_at, updated_at) VALUES ('p', 'x', ?, 0, 0)", states[i%len(states)]); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	sameCounts(t, s, "inserts")
	tx, err = s.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO tasks (project, title, state, created_at, updated_at) VALUES ('p', 'y', 'todo', 0, 0)"); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE tasks SET state = 'done' WHERE state = 'review'"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	sameCounts(t, s, "a rolled-back insert and move")
	exec("UPDATE tasks SET state = 'done' WHERE state = 'todo'")
	sameCounts(t, s, "a bulk move")
	exec("UPDATE tasks SET state = 'blocked', reason = 'r' WHERE id = 2")
	sameCounts(t, s, "one move")
	exec("UPDATE tasks SET title = 'z', state = state WHERE state = 'blocked'")
	sameCounts(t, s, "an update that keeps the state")
	exec("DELETE FROM tasks WHERE state = 'cancelled'")
	sameCounts(t, s, "deletes")
	exec("DELETE FROM tasks")
	sameCounts(t, s, "deleting every task")
	if _, err := s.AddTask(ctx, supervisor.NewTask{Project: "p", Title: "after"}); err != nil {
		t.Fatal(err)
	}
	sameCounts(t, s, "an add on the emptied board")
}

// A board made by the schema before the counts (version 5) is counted
// when it opens, and its counts follow writes from then on.
func TestOpenCountsAnOlderBoard(t *testing.T) {
	path := filepath.Join(t.TempDir(), "station.db")
	ctx := context.Background()
	db, err := sql.Open("sqlite", dsn(path, defaultOptions()))
	if err != nil {
		t.Fatal(err)
	}
	saved := migrations
	migrations = migrations[:5]
	err = migrate(ctx, db, sqlBoard{&Store{now: time.Now}})
	migrations = saved
	if err != nil {
		t.Fatal(err)
	}
	var v int
	if err := db.QueryRow("SELECT MAX(version) FROM schema_version").Scan(&v); err != nil || v != 5 {
		t.Fatalf("the old board is at version %d (%v), want 5", v, err)
	}
	for i, st := range []string{"todo", "done", "done", "blocked", "working", "done", "todo"} {
		if _, err := db.Exec("INSERT INTO tasks (project, title, state, created_at, updated_at) VALUES ('p', ?, ?, 0, 0)", i, st); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, err := s.Version(ctx); err != nil || v != len(migrations) {
		t.Fatalf("after Open the board is at version %d (%v), want %d", v, err, len(migrations))
	}
	sameCounts(t, s, "the migration")
	if got, _ := s.CountTasks(ctx); got[supervisor.TaskDone] != 3 || got[supervisor.TaskTodo] != 2 {
		t.Fatalf("CountTasks = %v, want done 3, todo 2 among them", got)
	}
	if _, err := s.Move(ctx, "t1", supervisor.Move{From: []supervisor.TaskState{supervisor.TaskTodo}, To: supervisor.TaskWorking}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddTask(ctx, supervisor.NewTask{Project: "p", Title: "new"}); err != nil {
		t.Fatal(err)
	}
	sameCounts(t, s, "a move and an add on the migrated board")
}
