package boardsql

import (
	"context"
	"fmt"

	"github.com/buildstation/buildstation/supervisor"
)

// Record appends tr to task n's history in tx, and tells the store
// (DB.Recorded).
func Record[Tx any](ctx context.Context, db DB[Tx], tx Tx, n int64, tr supervisor.Transition) error {
	if err := db.Conn(tx).Exec(ctx, `INSERT INTO transitions (task_id, from_state, to_state, attempt, reason, actor, at)
VALUES ($1, $2, $3, $4, $5, $6, $7)`, n, tr.From, tr.To, tr.Attempt, tr.Reason, tr.Actor, db.TimeArg(tr.At)); err != nil {
		return err
	}
	return db.Recorded(ctx, tx, n, tr)
}

// History lists a task's transitions oldest first, starting with the
// "" → todo row AddTask wrote.
func (b Board[Tx]) History(ctx context.Context, id string) ([]supervisor.Transition, error) {
	n, ok := supervisor.ParseTaskID(id)
	if !ok {
		return nil, fmt.Errorf("history of task %s: %w", id, supervisor.ErrNotFound)
	}
	rows, err := b.db.Read().Query(ctx, `SELECT from_state, to_state, attempt, reason, actor, at
FROM transitions WHERE task_id = $1 ORDER BY id`, n)
	if err != nil {
		return nil, fmt.Errorf("history of task %s: %w", id, err)
	}
	defer rows.Close()
	var out []supervisor.Transition
	for rows.Next() {
		tr := supervisor.Transition{TaskID: id}
		var from, to string
		if err := rows.Scan(&from, &to, &tr.Attempt, &tr.Reason, &tr.Actor, b.db.Time(&tr.At)); err != nil {
			return nil, fmt.Errorf("history of task %s: %w", id, err)
		}
		tr.From, tr.To, tr.At = supervisor.TaskState(from), supervisor.TaskState(to), tr.At.UTC()
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
