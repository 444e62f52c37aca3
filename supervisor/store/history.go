package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/buildstation/buildstation/supervisor"
)

// insertTransition appends one history row for task n.
func insertTransition(ctx context.Context, tx *sql.Tx, n int64, tr supervisor.Transition) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO transitions (task_id, from_state, to_state, attempt, reason, actor, at)
VALUES (?, ?, ?, ?, ?, ?, ?)`, n, tr.From, tr.To, tr.Attempt, tr.Reason, tr.Actor, toMS(tr.At))
	return err
}

// History lists a task's transitions oldest first, starting with the
// "" → todo row AddTask wrote.
func (s *Store) History(ctx context.Context, id string) ([]supervisor.Transition, error) {
	n, ok := supervisor.ParseTaskID(id)
	if !ok {
		return nil, fmt.Errorf("history of task %s: %w", id, supervisor.ErrNotFound)
	}
	rows, err := s.rd.QueryContext(ctx, `SELECT from_state, to_state, attempt, reason, actor, at
FROM transitions WHERE task_id = ? ORDER BY id`, n)
	if err != nil {
		return nil, fmt.Errorf("history of task %s: %w", id, err)
	}
	defer rows.Close()
	var out []supervisor.Transition
	for rows.Next() {
		tr := supervisor.Transition{TaskID: id}
		var from, to string
		var at int64
		if err := rows.Scan(&from, &to, &tr.Attempt, &tr.Reason, &tr.Actor, &at); err != nil {
			return nil, fmt.Errorf("history of task %s: %w", id, err)
		}
		tr.From, tr.To, tr.At = supervisor.TaskState(from), supervisor.TaskState(to), fromMS(at)
		out = append(out, tr)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("history of task %s: %w", id, err)
	}
	if len(out) == 0 {
		// AddTask always writes a row, so no rows means no task.
		return nil, fmt.Errorf("history of task %s: %w", id, supervisor.ErrNotFound)
	}
	return out, nil
}
