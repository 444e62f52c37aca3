package pgstore

import (
	"context"
	"fmt"
	"time"

	"github.com/buildstation/buildstation/supervisor"

	"github.com/jackc/pgx/v5"
)

// record appends tr to task n's history and announces it to listeners, in
// tx: the notification is sent when, and only if, tx commits.
func (s *Store) record(ctx context.Context, tx pgx.Tx, n int64, tr supervisor.Transition) error {
	if _, err := tx.Exec(ctx, `INSERT INTO transitions (task_id, from_state, to_state, attempt, reason, actor, at)
VALUES ($1, $2, $3, $4, $5, $6, $7)`, n, tr.From, tr.To, tr.Attempt, tr.Reason, tr.Actor, tr.At); err != nil {
		return err
	}
	return notify(ctx, tx, Change{TaskID: supervisor.TaskID(n), From: tr.From, To: tr.To, Station: s.station, Actor: tr.Actor, At: tr.At})
}

// History lists a task's transitions oldest first, starting with the
// "" → todo row AddTask wrote.
func (s *Store) History(ctx context.Context, id string) ([]supervisor.Transition, error) {
	n, ok := supervisor.ParseTaskID(id)
	if !ok {
		return nil, fmt.Errorf("history of task %s: %w", id, supervisor.ErrNotFound)
	}
	rows, err := s.pool.Query(ctx, `SELECT from_state, to_state, attempt, reason, actor, at
FROM transitions WHERE task_id = $1 ORDER BY id`, n)
	if err != nil {
		return nil, fmt.Errorf("history of task %s: %w", id, err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (supervisor.Transition, error) {
		tr := supervisor.Transition{TaskID: id}
		var from, to string
		var at time.Time
		err := r.Scan(&from, &to, &tr.Attempt, &tr.Reason, &tr.Actor, &at)
		tr.From, tr.To, tr.At = supervisor.TaskState(from), supervisor.TaskState(to), at.UTC()
		return tr, err
	})
	if err != nil {
		return nil, fmt.Errorf("history of task %s: %w", id, err)
	}
	if len(out) == 0 {
		// AddTask always writes a row, so no rows means no task.
		return nil, fmt.Errorf("history of task %s: %w", id, supervisor.ErrNotFound)
	}
	return out, nil
}
