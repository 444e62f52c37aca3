package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/buildstation/buildstation/supervisor"
)

// queryer is what reads need: the database, or a transaction when the read
// decides a write.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

const taskColumns = "id, project, title, body, state, attempt, reason, summary, notes, created_at, updated_at"

// rowScanner is *sql.Row or *sql.Rows.
type rowScanner interface{ Scan(dest ...any) error }

func scanTask(r rowScanner) (supervisor.Task, error) {
	var (
		t              supervisor.Task
		n              int64
		state, notes   string
		created, updat int64
	)
	if err := r.Scan(&n, &t.Project, &t.Title, &t.Body, &state, &t.Attempt, &t.Reason, &t.Summary, &notes, &created, &updat); err != nil {
		return supervisor.Task{}, err
	}
	t.ID = supervisor.TaskID(n)
	t.State = supervisor.TaskState(state)
	// Most tasks have no notes: skip the decoder for them (a board listing
	// reads every row).
	if notes != "[]" {
		if err := json.Unmarshal([]byte(notes), &t.Notes); err != nil {
			return supervisor.Task{}, fmt.Errorf("task %s: notes: %w", t.ID, err)
		}
	}
	if len(t.Notes) == 0 {
		t.Notes = nil // "[]" and a fresh task read back alike
	}
	t.CreatedAt, t.UpdatedAt = fromMS(created), fromMS(updat)
	return t, nil
}

// getTask reads task n; supervisor.ErrNotFound when there is none.
func getTask(ctx context.Context, q queryer, n int64) (supervisor.Task, error) {
	t, err := scanTask(q.QueryRowContext(ctx, "SELECT "+taskColumns+" FROM tasks WHERE id = ?", n))
	if errors.Is(err, sql.ErrNoRows) {
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
	now := s.stamp()
	t := supervisor.Task{
		Project:   nt.Project,
		Title:     nt.Title,
		Body:      nt.Body,
		State:     supervisor.TaskTodo,
		Attempt:   1,
		CreatedAt: fromMS(now),
		UpdatedAt: fromMS(now),
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO tasks (project, title, body, state, attempt, created_at, updated_at)
VALUES (?, ?, ?, ?, 1, ?, ?)`, t.Project, t.Title, t.Body, t.State, now, now)
		if err != nil {
			return err
		}
		n, err := res.LastInsertId()
		if err != nil {
			return err
		}
		t.ID = supervisor.TaskID(n)
		return insertTransition(ctx, tx, n, supervisor.Transition{To: t.State, Attempt: 1, At: t.CreatedAt})
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
	t, err := getTask(ctx, s.rd, n)
	if err != nil {
		return supervisor.Task{}, fmt.Errorf("task %s: %w", id, err)
	}
	return t, nil
}

// Tasks lists the tasks f selects, oldest first (newest first with f.Newest).
func (s *Store) Tasks(ctx context.Context, f supervisor.TaskFilter) ([]supervisor.Task, error) {
	q := "SELECT " + taskColumns + " FROM tasks WHERE 1=1"
	var args []any
	if f.State != "" {
		q += " AND state = ?"
		args = append(args, f.State)
	}
	if f.Project != "" {
		q += " AND project = ?"
		args = append(args, f.Project)
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
		q += " AND id " + cmp + " ?"
		args = append(args, after)
	}
	q += " ORDER BY id"
	if f.Newest {
		q += " DESC"
	}
	if f.Limit > 0 {
		q += " LIMIT ?"
		args = append(args, f.Limit)
	}
	rows, err := s.rd.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list tasks: %w", err)
	}
	defer rows.Close()
	var out []supervisor.Task
	for rows.Next() {
		t, err := scanTask(rows)
		if err != nil {
			return nil, fmt.Errorf("list tasks: %w", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list tasks: %w", err)
	}
	return out, nil
}

// CountTasks counts tasks per state with one GROUP BY over the state
// index, without reading a row.
func (s *Store) CountTasks(ctx context.Context) (map[supervisor.TaskState]int, error) {
	rows, err := s.rd.QueryContext(ctx, "SELECT state, COUNT(*) FROM tasks GROUP BY state")
	if err != nil {
		return nil, fmt.Errorf("count tasks: %w", err)
	}
	defer rows.Close()
	out := map[supervisor.TaskState]int{}
	for rows.Next() {
		var st string
		var n int
		if err := rows.Scan(&st, &n); err != nil {
			return nil, fmt.Errorf("count tasks: %w", err)
		}
		out[supervisor.TaskState(st)] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("count tasks: %w", err)
	}
	return out, nil
}
