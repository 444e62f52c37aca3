package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/boardsql"
)

// seed adds n todo tasks of project, with their first history rows, in one
// transaction: the setup of a benchmark, not the thing measured.
func seed(tb testing.TB, s *Store, project string, n int) {
	tb.Helper()
	ctx := context.Background()
	now := s.stamp()
	err := s.write(ctx, func(tx *sql.Tx) error {
		for i := range n {
			res, err := tx.ExecContext(ctx, `INSERT INTO tasks (project, title, body, state, attempt, created_at, updated_at)
VALUES (?, ?, '', 'todo', 1, ?, ?)`, project, fmt.Sprint("task ", i), now, now)
			if err != nil {
				return err
			}
			id, err := res.LastInsertId()
			if err != nil {
				return err
			}
			if err := boardsql.Record(ctx, sqlBoard{s}, tx, id, supervisor.Transition{To: supervisor.TaskTodo, Attempt: 1, At: fromMS(now)}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
}

func BenchmarkMove(b *testing.B) {
	s := openTemp(b)
	ctx := context.Background()
	task, err := s.AddTask(ctx, supervisor.NewTask{Project: "p", Title: "x"})
	if err != nil {
		b.Fatal(err)
	}
	states := [2]supervisor.TaskState{supervisor.TaskTodo, supervisor.TaskWorking}
	i := 0
	for b.Loop() {
		from, to := states[i%2], states[(i+1)%2]
		if _, err := s.Move(ctx, task.ID, supervisor.Move{From: []supervisor.TaskState{from}, To: to, Actor: "bench"}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkClaim(b *testing.B) {
	s := openTemp(b)
	ctx := context.Background()
	seed(b, s, "other", 1000) // claims must not scan other projects
	seed(b, s, "p", b.N)
	b.ResetTimer()
	for range b.N {
		if _, ok, err := s.Claim(ctx, "p", "bench"); err != nil || !ok {
			b.Fatalf("Claim: ok=%v err=%v", ok, err)
		}
	}
}

// BenchmarkOpen10k is what a station pays at start on a board that has seen
// ten thousand tasks: it should not grow with the board.
func BenchmarkOpen10k(b *testing.B) {
	path := filepath.Join(b.TempDir(), "station.db")
	s, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	seed(b, s, "p", 10_000)
	s.Close()
	for b.Loop() {
		s, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

func BenchmarkTasks10k(b *testing.B) {
	s := openTemp(b)
	seed(b, s, "p", 10_000)
	ctx := context.Background()
	for b.Loop() {
		ts, err := s.Tasks(ctx, supervisor.TaskFilter{State: supervisor.TaskTodo})
		if err != nil || len(ts) != 10_000 {
			b.Fatalf("Tasks: %d, %v", len(ts), err)
		}
	}
}
