package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/buildstation/buildstation/supervisor"

	"github.com/jackc/pgx/v5"
)

// Reap ends every expired lease, of any station: a task still working or
// in review moves to blocked with the reason "station <name> lost" (history
// actor "reaper"), so a person sees that a machine died under it and can
// requeue it. It returns the tasks it moved. Several stations may reap at
// once: each lease is ended by one of them, in its own transaction, and
// only if it is still expired when its task's row is locked (a renewal or
// another reaper may have come first).
func (s *Store) Reap(ctx context.Context) ([]supervisor.Task, error) {
	rows, err := s.pool.Query(ctx, "SELECT task_id FROM leases WHERE expires_at <= clock_timestamp() ORDER BY task_id")
	if err != nil {
		return nil, fmt.Errorf("reap leases: %w", err)
	}
	expired, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("reap leases: %w", err)
	}
	var moved []supervisor.Task
	for _, n := range expired {
		t, ok, err := s.reap(ctx, n)
		if err != nil {
			return moved, fmt.Errorf("reap lease of task %s: %w", taskID(n), err)
		}
		if ok {
			moved = append(moved, t)
		}
	}
	return moved, nil
}

// reap ends task n's lease if it is still expired, and blocks the task if
// it was running; ok reports a move.
func (s *Store) reap(ctx context.Context, n int64) (supervisor.Task, bool, error) {
	var (
		t     supervisor.Task
		moved bool
	)
	err := s.write(ctx, func(tx pgx.Tx) error {
		moved = false
		cur, err := getTask(ctx, tx, n, true)
		if errors.Is(err, supervisor.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		var holder string
		err = tx.QueryRow(ctx, "DELETE FROM leases WHERE task_id = $1 AND expires_at <= clock_timestamp() RETURNING station", n).Scan(&holder)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil // renewed, released or reaped meanwhile
		}
		if err != nil {
			return err
		}
		if err := endSessions(ctx, tx, n, holder, cur.Project); err != nil {
			return err
		}
		if !running(cur.State) {
			return nil
		}
		t, err = s.apply(ctx, tx, n, cur, supervisor.Move{
			From:   []supervisor.TaskState{cur.State},
			To:     supervisor.TaskBlocked,
			Reason: fmt.Sprintf("station %s lost", holder),
			Actor:  "reaper",
		})
		moved = err == nil
		return err
	})
	return t, moved, err
}
