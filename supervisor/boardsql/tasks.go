package boardsql

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/buildstation/buildstation/supervisor"
)

// columns are a task's columns on every board, in ScanTask's order;
// pinnedColumns adds the shared board's pin.
const (
	columns       = "id, project, title, body, state, attempt, reason, summary, notes, created_at, updated_at, ext_kind, ext_id, ext_url"
	pinnedColumns = columns + ", pinned_to"
)

// TaskColumns are the columns ScanTask reads, for a store's own queries of
// tasks.
func TaskColumns(d Dialect) string {
	if d.Pins() {
		return pinnedColumns
	}
	return columns
}

// ScanTask reads a task from a row of TaskColumns.
func ScanTask(d Dialect, r Row) (supervisor.Task, error) {
	var (
		t     supervisor.Task
		n     int64
		state string
		ext   supervisor.External
	)
	dest := []any{&n, &t.Project, &t.Title, &t.Body, &state, &t.Attempt, &t.Reason, &t.Summary,
		d.Notes(&t.Notes), d.Time(&t.CreatedAt), d.Time(&t.UpdatedAt), &ext.Kind, &ext.ID, &ext.URL}
	if d.Pins() {
		dest = append(dest, &t.Pinned)
	}
	if err := r.Scan(dest...); err != nil {
		return supervisor.Task{}, err
	}
	t.ID = supervisor.TaskID(n)
	t.State = supervisor.TaskState(state)
	if len(t.Notes) == 0 {
		t.Notes = nil // no notes and a fresh task read back alike
	}
	t.CreatedAt, t.UpdatedAt = t.CreatedAt.UTC(), t.UpdatedAt.UTC()
	if ext.ID != "" {
		t.External = &ext
	}
	return t, nil
}

// GetTask reads task n through c, locking its row until c's transaction
// ends when lock is set (the row lock is what orders a shared board's
// writers of one task); supervisor.ErrNotFound when there is none.
func GetTask(ctx context.Context, d Dialect, c Conn, n int64, lock bool) (supervisor.Task, error) {
	q := "SELECT " + TaskColumns(d) + " FROM tasks WHERE id = $1"
	if lock {
		q += d.ForUpdate()
	}
	t, err := ScanTask(d, c.QueryRow(ctx, q, n))
	if errors.Is(err, sql.ErrNoRows) {
		return supervisor.Task{}, supervisor.ErrNotFound
	}
	return t, err
}

// AddTask puts a new task in todo, attempt 1, and writes its first history
// row ("" → todo) in the same transaction. The board's clock is read once,
// so the task's two times and its history row's are one instant.
func (b Board[Tx]) AddTask(ctx context.Context, nt supervisor.NewTask) (supervisor.Task, error) {
	if err := nt.Validate(); err != nil {
		return supervisor.Task{}, fmt.Errorf("add task: %w", err)
	}
	nt = nt.Clean()
	var t supervisor.Task
	err := b.db.Write(ctx, func(tx Tx) error {
		var ext supervisor.External
		if nt.External != nil {
			ext = *nt.External
		}
		if ext.ID != "" {
			if dup, err := hasExternal(ctx, b.db.Conn(tx), ext); err != nil || dup {
				return cmp.Or(err, error(supervisor.ErrDuplicateExternal))
			}
		}
		now, args := b.db.Now([]any{nt.Project, nt.Title, nt.Body, supervisor.TaskTodo, ext.Kind, ext.ID, ext.URL})
		var err error
		t, err = ScanTask(b.db, b.db.Conn(tx).QueryRow(ctx, `INSERT INTO tasks (project, title, body, state, attempt, created_at, updated_at, ext_kind, ext_id, ext_url)
SELECT $1, $2, $3, $4, 1, at, at, $5, $6, $7 FROM (SELECT `+now+` AS at) AS now
RETURNING `+TaskColumns(b.db), args...))
		if err != nil && ext.ID != "" && uniqueExternal(err) {
			// Another station imported it between the check and here.
			return supervisor.ErrDuplicateExternal
		}
		if err != nil {
			return err
		}
		n, _ := supervisor.ParseTaskID(t.ID)
		return Record(ctx, b.db, tx, n, supervisor.Transition{TaskID: t.ID, To: t.State, Attempt: 1, At: t.CreatedAt})
	})
	if err != nil {
		return supervisor.Task{}, fmt.Errorf("add task: %w", err)
	}
	return t, nil
}

// Task returns one task; errors.Is supervisor.ErrNotFound when id names none.
func (b Board[Tx]) Task(ctx context.Context, id string) (supervisor.Task, error) {
	n, ok := supervisor.ParseTaskID(id)
	if !ok {
		return supervisor.Task{}, fmt.Errorf("task %s: %w", id, supervisor.ErrNotFound)
	}
	t, err := GetTask(ctx, b.db, b.db.Read(), n, false)
	if err != nil {
		return supervisor.Task{}, fmt.Errorf("task %s: %w", id, err)
	}
	return t, nil
}

// hasExternal reports whether the board has a task for ext already.
func hasExternal(ctx context.Context, c Conn, ext supervisor.External) (bool, error) {
	var n int64
	err := c.QueryRow(ctx, "SELECT id FROM tasks WHERE ext_kind = $1 AND ext_id = $2", ext.Kind, ext.ID).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// uniqueExternal reports whether err is the unique index on a task's
// issue refusing a second task for it (SQLite names the columns,
// PostgreSQL the index).
func uniqueExternal(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "tasks_external") || strings.Contains(msg, "tasks.ext_id")
}

// EditTask sets a todo task's title and body (an issue edited upstream
// before its task started), as supervisor.Task.Edit says.
func (b Board[Tx]) EditTask(ctx context.Context, id, title, body string) (supervisor.Task, error) {
	n, ok := supervisor.ParseTaskID(id)
	if !ok {
		return supervisor.Task{}, fmt.Errorf("edit task %s: %w", id, supervisor.ErrNotFound)
	}
	var t supervisor.Task
	err := b.db.Write(ctx, func(tx Tx) error {
		c := b.db.Conn(tx)
		cur, err := GetTask(ctx, b.db, c, n, true)
		if err != nil {
			return err
		}
		now, err := b.db.Clock(ctx, c)
		if err != nil {
			return err
		}
		t, err = cur.Edit(title, body, now)
		if err != nil {
			return err
		}
		return c.Exec(ctx, "UPDATE tasks SET title = $1, body = $2, updated_at = $3 WHERE id = $4", t.Title, t.Body, b.db.TimeArg(t.UpdatedAt), n)
	})
	if err != nil {
		return supervisor.Task{}, fmt.Errorf("edit task %s: %w", id, err)
	}
	return t, nil
}
