package pgstore

import (
	"context"
	"errors"
	"fmt"
	"maps"
	neturl "net/url"
	"os"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/pgtest"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/boardtest"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
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
	rows, err := s.pool.Query(ctx, "SELECT state, COUNT(*) FROM tasks GROUP BY state")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	boardtest.SameCounts(t, what, got, rows)
}

// The counts follow writes made in SQL on the board, not only the board's
// own: inserts, a rolled-back insert and move, bulk and single state
// changes, an update that keeps the state, deletes; and a fold (what Reap
// does) keeps them while it leaves one row per state.
func TestCountsFollowSQL(t *testing.T) {
	t.Parallel()
	s := openStore(t, newDB(t), "station")
	ctx := context.Background()
	exec := func(q string) {
		t.Helper()
		if _, err := s.pool.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	sameCounts(t, s, "nothing")
	exec(`INSERT INTO tasks (project, title, state, created_at, updated_at)
SELECT 'p', 'x', (ARRAY['todo','working','review','blocked','done','cancelled','todo','done'])[1 + i % 8], now(), now()
FROM generate_series(0, 79) i`)
	sameCounts(t, s, "inserts")
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "INSERT INTO tasks (project, title, state, created_at, updated_at) VALUES ('p', 'y', 'todo', now(), now())"); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "UPDATE tasks SET state = 'done' WHERE state = 'review'"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	sameCounts(t, s, "a rolled-back insert and move")
	exec("UPDATE tasks SET state = 'done' WHERE state = 'todo'")
	sameCounts(t, s, "a bulk move")
	if err := s.foldCounts(ctx); err != nil {
		t.Fatal(err)
	}
	sameCounts(t, s, "a fold")
	if n := queryInt(t, s, "SELECT COUNT(*) FROM task_counts"); n > len(supervisor.TaskStates) {
		t.Fatalf("after a fold task_counts has %d rows, want one per state at most", n)
	}
	versions := func() string {
		var v string
		if err := s.pool.QueryRow(ctx, "SELECT string_agg(state || ':' || xmin::text, ' ' ORDER BY state) FROM task_counts").Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	before := versions()
	if err := s.foldCounts(ctx); err != nil {
		t.Fatal(err)
	}
	if after := versions(); after != before {
		t.Fatalf("a fold of a folded board rewrote its rows (%s, was %s): an idle board must not be written", after, before)
	}
	exec("UPDATE tasks SET state = 'blocked', reason = 'r' WHERE id = 2")
	sameCounts(t, s, "one move")
	exec("UPDATE tasks SET title = 'z', state = state WHERE state = 'blocked'")
	sameCounts(t, s, "an update that keeps the state")
	exec("DELETE FROM tasks WHERE state = 'cancelled'")
	sameCounts(t, s, "deletes")
	if _, err := s.Reap(ctx, time.Minute); err != nil {
		t.Fatal(err)
	}
	sameCounts(t, s, "a reap (which folds)")
	exec("DELETE FROM tasks")
	sameCounts(t, s, "deleting every task")
}

// Two stations' opposite moves (todo → working on one, working → todo on
// the other), both in open transactions, neither waiting for the other:
// the counts take no lock a move could wait on, and both are counted.
func TestCountsTakeNoCommonLock(t *testing.T) {
	t.Parallel()
	s := openStore(t, newDB(t), "station")
	ctx := context.Background()
	a := addTask(t, s, "p", "a")
	b := addTask(t, s, "p", "b")
	if _, err := s.Move(ctx, b.ID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskTodo}, To: supervisor.TaskWorking}); err != nil {
		t.Fatal(err)
	}
	move := func(id string, from, to supervisor.TaskState) pgx.Tx {
		t.Helper()
		tx, err := s.pool.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { tx.Rollback(ctx) })
		n, _ := supervisor.ParseTaskID(id)
		if _, err := tx.Exec(ctx, "SET LOCAL lock_timeout = '2s'"); err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(ctx, "UPDATE tasks SET state = $2 WHERE id = $1 AND state = $3", n, to, from); err != nil {
			var pgErr *pgconn.PgError
			if errors.As(err, &pgErr) && pgErr.Code == "55P03" {
				t.Fatalf("move %s %s → %s waited for the other's lock: %v", id, from, to, err)
			}
			t.Fatal(err)
		}
		return tx
	}
	ta := move(a.ID, supervisor.TaskTodo, supervisor.TaskWorking)
	tb := move(b.ID, supervisor.TaskWorking, supervisor.TaskTodo)
	for _, tx := range []pgx.Tx{tb, ta} {
		if err := tx.Commit(ctx); err != nil {
			t.Fatal(err)
		}
	}
	sameCounts(t, s, "two opposite moves at once")
}

// olderBoard is a new database migrated to schema version n only, as an
// older station left it, and a pool on it (closed with the test).
func olderBoard(t *testing.T, n int) (string, *pgxpool.Pool) {
	t.Helper()
	url := newDB(t)
	ctx := context.Background()
	pool, _, err := connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	saved := migrations
	migrations = migrations[:n]
	err = migrate(ctx, pool)
	migrations = saved
	if err != nil {
		t.Fatal(err)
	}
	return url, pool
}

// A board made by the schema before the counts (version 8) is counted
// when a station opens it, and its counts follow writes from then on.
func TestOpenCountsAnOlderBoard(t *testing.T) {
	url, pool := olderBoard(t, 8)
	ctx := context.Background()
	if _, err := pool.Exec(ctx, `INSERT INTO tasks (project, title, state, created_at, updated_at)
SELECT 'p', 'x', (ARRAY['todo','done','done','blocked','working','done','todo'])[1 + i % 7], now(), now()
FROM generate_series(0, 6) i`); err != nil {
		t.Fatal(err)
	}
	s := openStore(t, url, "station")
	if v, err := version(ctx, s.pool); err != nil || v != len(migrations) {
		t.Fatalf("after Open the board is at version %d (%v), want %d", v, err, len(migrations))
	}
	sameCounts(t, s, "the migration")
	if got, _ := s.CountTasks(ctx); got[supervisor.TaskDone] != 3 || got[supervisor.TaskTodo] != 2 {
		t.Fatalf("CountTasks = %v, want done 3, todo 2 among them", got)
	}
	if _, err := s.Move(ctx, "t1", supervisor.Move{From: []supervisor.TaskState{supervisor.TaskTodo}, To: supervisor.TaskWorking}); err != nil {
		t.Fatal(err)
	}
	addTask(t, s, "p", "new")
	sameCounts(t, s, "a move and an add on the migrated board")
}

// A station's role granted the board's tables before the counts existed
// (docs/team.md's GRANT … ON ALL TABLES, run once) still adds, moves,
// counts and reaps after an owner migrated the board: the counts' table is
// reached through functions that run as their owner.
func TestCountsForARoleGrantedBefore(t *testing.T) {
	role := fmt.Sprintf("bst_user_%d_%d", os.Getpid(), roleSeq.Add(1))
	admin := pgtest.Admin(t)
	pgtest.Exec(t, admin, "CREATE ROLE "+role+" LOGIN")
	t.Cleanup(func() { pgtest.Exec(t, admin, "DROP ROLE IF EXISTS "+role) })
	url, pool := olderBoard(t, 8)
	ctx := context.Background()
	if _, err := pool.Exec(ctx, `REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO `+role+`;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO `+role); err != nil {
		t.Fatal(err)
	}
	owner := openStore(t, url, "owner") // migrates to the newest version
	u, _ := neturl.Parse(url)
	u.User = neturl.User(role)
	s := openStore(t, u.String(), "user")
	task := addTask(t, s, "p", "one")
	if _, err := s.Move(ctx, task.ID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskTodo}, To: supervisor.TaskWorking}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Reap(ctx, time.Minute); err != nil {
		t.Fatal(err)
	}
	got, err := s.CountTasks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(got, map[supervisor.TaskState]int{supervisor.TaskWorking: 1}) {
		t.Fatalf("CountTasks as %s = %v, want working 1", role, got)
	}
	sameCounts(t, owner, "the role's writes")
}
