package boardsql

import (
	"context"
	"fmt"
	"strconv"

	"github.com/buildstation/buildstation/supervisor"
)

// Tasks lists the tasks f selects, oldest first (newest first with f.Newest).
func (b Board[Tx]) Tasks(ctx context.Context, f supervisor.TaskFilter) ([]supervisor.Task, error) {
	after, err := f.Cursor()
	if err != nil {
		return nil, err
	}
	q, args := tasksQuery(b.db, f, after)
	rows, err := b.db.Read().Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list tasks: %w", err)
	}
	defer rows.Close()
	var out []supervisor.Task
	for rows.Next() {
		t, err := ScanTask(b.db, rows)
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

// tasksQuery is the query of the tasks f selects past the task numbered
// after (none when 0), and its arguments.
func tasksQuery(d Dialect, f supervisor.TaskFilter, after int64) (string, []any) {
	q := "SELECT " + TaskColumns(d) + " FROM tasks WHERE 1=1"
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	if f.State != "" {
		q += " AND state = " + arg(f.State)
	}
	if f.Project != "" {
		q += " AND project = " + arg(f.Project)
	}
	cmp := ">" // After pages towards newer tasks, or older ones with Newest
	if f.Newest {
		cmp = "<"
	}
	if after != 0 {
		q += " AND id " + cmp + " " + arg(after)
	}
	q += " ORDER BY id"
	if f.Newest {
		q += " DESC"
	}
	if f.Limit > 0 {
		q += " LIMIT " + arg(f.Limit)
	}
	return q, args
}

// CountTasks counts tasks per state by the store's own query (Counts),
// from the counts the store keeps, without reading a task.
func (b Board[Tx]) CountTasks(ctx context.Context) (map[supervisor.TaskState]int, error) {
	rows, err := b.db.Read().Query(ctx, b.db.Counts())
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
		if n > 0 {
			out[supervisor.TaskState(st)] = n
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("count tasks: %w", err)
	}
	return out, nil
}
