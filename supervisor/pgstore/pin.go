package pgstore

import (
	"context"
	"fmt"

	"github.com/buildstation/buildstation/supervisor"

	"github.com/jackc/pgx/v5"
)

var _ supervisor.Pinner = (*Store)(nil)

// Pin pins task id to this station: its work is only in this station's
// worktree, so no other station claims it (see claim). It is not a
// transition: the task stays where it is, and its history does not grow.
func (s *Store) Pin(ctx context.Context, id string) error {
	return s.setPin(ctx, id, fmt.Sprintf("pin task %s to station %s", id, s.station), "UPDATE tasks SET pinned_to = $2 WHERE id = $1", s.station)
}

// Unpin lifts this station's pin of task id (another station's stays:
// that one pinned it since); with anyStation, whoever's pin it is — a
// person's call, when the pinned station is gone for good.
func (s *Store) Unpin(ctx context.Context, id string, anyStation bool) error {
	if anyStation {
		return s.setPin(ctx, id, "unpin task "+id, "UPDATE tasks SET pinned_to = '' WHERE id = $1 AND pinned_to <> $2", "")
	}
	return s.setPin(ctx, id, fmt.Sprintf("unpin task %s from station %s", id, s.station),
		"UPDATE tasks SET pinned_to = '' WHERE id = $1 AND pinned_to = $2", s.station)
}

func (s *Store) setPin(ctx context.Context, id, what, sql, arg string) error {
	n, ok := supervisor.ParseTaskID(id)
	if !ok {
		return fmt.Errorf("%s: %w", what, supervisor.ErrNotFound)
	}
	err := s.write(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, sql, n, arg)
		if err != nil || tag.RowsAffected() > 0 {
			return err
		}
		var exists bool
		if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM tasks WHERE id = $1)", n).Scan(&exists); err != nil {
			return err
		}
		if !exists {
			return supervisor.ErrNotFound
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}
