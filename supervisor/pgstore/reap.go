package pgstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/boardsql"

	"github.com/jackc/pgx/v5"
)

// Reap ends every lease that expired more than grace ago, of any station: a task still working or
// in review moves to blocked with the reason "station <name> lost" (history
// actor "reaper"), so a person sees that a machine died under it and can
// requeue it. It returns the tasks it moved. Several stations may reap at
// once: each lease is ended by one of them, in its own transaction, and
// only if it is still expired when its task's row is locked (a renewal or
// another reaper may have come first).
//
// grace is the time a station that lost touch with the board for a while
// gives its holder to come back: the holder stops its agents before its
// lease expires (it self-fences), so nothing runs twice either way, but a
// holder that comes back within grace may still settle its task itself.
//
// It also folds the board's counts per state (foldCounts).
func (s *Store) Reap(ctx context.Context, grace time.Duration) ([]supervisor.Task, error) {
	if err := s.foldCounts(ctx); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, "SELECT task_id FROM leases WHERE expires_at + $1 * interval '1 millisecond' <= clock_timestamp() ORDER BY task_id", grace.Milliseconds())
	if err != nil {
		return nil, fmt.Errorf("reap leases: %w", reach(err))
	}
	expired, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("reap leases: %w", reach(err))
	}
	var moved []supervisor.Task
	for _, n := range expired {
		t, ok, err := s.reap(ctx, n, grace)
		if err != nil {
			return moved, fmt.Errorf("reap lease of task %s: %w", supervisor.TaskID(n), err)
		}
		if ok {
			moved = append(moved, t)
		}
	}
	return moved, nil
}

// reap ends task n's lease if it is still expired, and blocks the task if
// it was running; ok reports a move.
func (s *Store) reap(ctx context.Context, n int64, grace time.Duration) (supervisor.Task, bool, error) {
	var (
		t     supervisor.Task
		moved bool
	)
	err := s.write(ctx, func(tx pgx.Tx) error {
		moved = false
		cur, err := boardsql.GetTask(ctx, dialect{}, conn{q: tx}, n, true)
		if errors.Is(err, supervisor.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		var holder string
		err = tx.QueryRow(ctx, "DELETE FROM leases WHERE task_id = $1 AND expires_at + $2 * interval '1 millisecond' <= clock_timestamp() RETURNING station", n, grace.Milliseconds()).Scan(&holder)
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

// foldCounts folds the rows task_counts gathers (a +1 or -1 per insert,
// move and delete, migration 9) into one per state, so the rows a status
// sums stay a few per state: every station reaps now and then. Folds on
// several stations at once each fold other rows; a write waits for none.
func (s *Store) foldCounts(ctx context.Context) error {
	err := s.write(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "SELECT task_counts_fold()")
		return err
	})
	if err != nil {
		return fmt.Errorf("fold task counts: %w", err)
	}
	return nil
}
