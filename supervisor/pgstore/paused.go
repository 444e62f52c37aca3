package pgstore

import (
	"context"
	"fmt"

	"github.com/buildstation/buildstation/supervisor"

	"github.com/jackc/pgx/v5"
)

// SetPaused pauses project's queue with reason, or resumes it, for every
// station sharing the board. Pausing a paused project replaces the reason.
func (s *Store) SetPaused(ctx context.Context, project string, paused bool, reason string) error {
	verb, err := supervisor.CheckPause(project, paused)
	if err != nil {
		return err
	}
	err = s.write(ctx, func(tx pgx.Tx) error {
		if !paused {
			_, err := tx.Exec(ctx, "DELETE FROM paused WHERE project = $1", project)
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO paused (project, reason, at) VALUES ($1, $2, `+nowSQL+`)
ON CONFLICT (project) DO UPDATE SET reason = excluded.reason, at = excluded.at`, project, reason)
		return err
	})
	if err != nil {
		return fmt.Errorf("%s project %s: %w", verb, project, err)
	}
	return nil
}

// Paused maps each paused project to the reason it was paused.
func (s *Store) Paused(ctx context.Context) (map[string]string, error) {
	rows, err := s.pool.Query(ctx, "SELECT project, reason FROM paused")
	if err != nil {
		return nil, fmt.Errorf("list paused projects: %w", reach(err))
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var p, r string
		if err := rows.Scan(&p, &r); err != nil {
			return nil, fmt.Errorf("list paused projects: %w", reach(err))
		}
		out[p] = r
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list paused projects: %w", reach(err))
	}
	return out, nil
}
