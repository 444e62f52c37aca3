package pgstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/buildstation/buildstation/supervisor"

	"github.com/jackc/pgx/v5"
)

const taskColumns = "id, project, title, body, state, attempt, reason, summary, notes, created_at, updated_at, pinned_to"

// querier is what reads need: the pool, or a transaction when the read
// decides a write.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

func scanTask(r pgx.Row) (supervisor.Task, error) {
	var (
		t                supervisor.Task
		n                int64
		state            string
		created, updated time.Time
	)
	if err := r.Scan(&n, &t.Project, &t.Title, &t.Body, &state, &t.Attempt, &t.Reason, &t.Summary, &t.Notes, &created, &updated, &t.Pinned); err != nil {
		return supervisor.Task{}, err
	}
	t.ID = supervisor.TaskID(n)
	t.State = supervisor.TaskState(state)
	if len(t.Notes) == 0 {
		t.Notes = nil // '{}' and a fresh task read back alike
	}
	t.CreatedAt, t.UpdatedAt = created.UTC(), updated.UTC()
	return t, nil
}

// getTask reads task n, locking its row until tx ends when lock is set (the
// row lock is what orders every writer of one task); supervisor.ErrNotFound
// when there is none.
func getTask(ctx context.Context, q querier, n int64, lock bool) (supervisor.Task, error) {
	sql := "SELECT " + taskColumns + " FROM tasks WHERE id = $1"
	if lock {
		sql += " FOR UPDATE"
	}
	t, err := scanTask(q.QueryRow(ctx, sql, n))
	if errors.Is(err, pgx.ErrNoRows) {
		return supervisor.Task{}, supervisor.ErrNotFound
	}
	return t, err
}

// AddTask puts a new task in todo, attempt 1, and writes its first history
// row ("" → todo) in the same transaction.
func (s *Store) AddTask(ctx context.Context, nt supervisor.NewTask) (supervisor.Task, error) {
	if err := nt.Validate(); err != nil {
		return supervisor.Task{}, fmt.Errorf("add task: %w", err)
	}
	var t supervisor.Task
	err := s.write(ctx, func(tx pgx.Tx) error {
		var err error
		t, err = scanTask(tx.QueryRow(ctx, `WITH now AS (SELECT `+nowSQL+` AS at)
INSERT INTO tasks (project, title, body, state, attempt, created_at, updated_at)
SELECT $1, $2, $3, $4, 1, at, at FROM now
RETURNING `+taskColumns, nt.Project, nt.Title, nt.Body, supervisor.TaskTodo))
		if err != nil {
			return err
		}
		n, _ := supervisor.ParseTaskID(t.ID)
		return s.record(ctx, tx, n, supervisor.Transition{TaskID: t.ID, To: t.State, Attempt: 1, At: t.CreatedAt})
	})
	if err != nil {
		return supervisor.Task{}, fmt.Errorf("add task: %w", err)
	}
	return t, nil
}

// Task returns one task; errors.Is supervisor.ErrNotFound when id names none.
func (s *Store) Task(ctx context.Context, id string) (supervisor.Task, error) {
	n, ok := supervisor.ParseTaskID(id)
	if !ok {
		return supervisor.Task{}, fmt.Errorf("task %s: %w", id, supervisor.ErrNotFound)
	}
	t, err := getTask(ctx, s.pool, n, false)
	if err != nil {
		return supervisor.Task{}, fmt.Errorf("task %s: %w", id, reach(err))
	}
	return t, nil
}

// Tasks lists the tasks f selects, oldest first (newest first with f.Newest).
func (s *Store) Tasks(ctx context.Context, f supervisor.TaskFilter) ([]supervisor.Task, error) {
	sql := "SELECT " + taskColumns + " FROM tasks WHERE true"
	var args []any
	if f.State != "" {
		args = append(args, f.State)
		sql += fmt.Sprintf(" AND state = $%d", len(args))
	}
	if f.Project != "" {
		args = append(args, f.Project)
		sql += fmt.Sprintf(" AND project = $%d", len(args))
	}
	cmp := ">" // After pages towards newer tasks, or older ones with Newest
	if f.Newest {
		cmp = "<"
	}
	after, err := f.Cursor()
	if err != nil {
		return nil, err
	}
	if after != 0 {
		args = append(args, after)
		sql += fmt.Sprintf(" AND id "+cmp+" $%d", len(args))
	}
	sql += " ORDER BY id"
	if f.Newest {
		sql += " DESC"
	}
	if f.Limit > 0 {
		args = append(args, f.Limit)
		sql += fmt.Sprintf(" LIMIT $%d", len(args))
	}
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, fmt.Errorf("list tasks: %w", reach(err))
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (supervisor.Task, error) { return scanTask(r) })
	if err != nil {
		return nil, fmt.Errorf("list tasks: %w", reach(err))
	}
	return out, nil
}

// CountTasks counts tasks per state with one GROUP BY, without reading a
// row.
func (s *Store) CountTasks(ctx context.Context) (map[supervisor.TaskState]int, error) {
	rows, err := s.pool.Query(ctx, "SELECT state, COUNT(*) FROM tasks GROUP BY state")
	if err != nil {
		return nil, fmt.Errorf("count tasks: %w", reach(err))
	}
	defer rows.Close()
	out := map[supervisor.TaskState]int{}
	for rows.Next() {
		var st string
		var n int
		if err := rows.Scan(&st, &n); err != nil {
			return nil, fmt.Errorf("count tasks: %w", reach(err))
		}
		out[supervisor.TaskState(st)] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("count tasks: %w", reach(err))
	}
	return out, nil
}
