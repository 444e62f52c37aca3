package boardsql

import (
	"context"
	"fmt"

	"github.com/buildstation/buildstation/supervisor"
)

// SetPaused pauses project's queue with reason, or resumes it (on a shared
// board, for every station). Pausing a paused project replaces the reason.
func (b Board[Tx]) SetPaused(ctx context.Context, project string, paused bool, reason string) error {
	verb, err := supervisor.CheckPause(project, paused)
	if err != nil {
		return err
	}
	err = b.db.Write(ctx, func(tx Tx) error {
		if !paused {
			return b.db.Conn(tx).Exec(ctx, "DELETE FROM paused WHERE project = $1", project)
		}
		now, args := b.db.Now([]any{project, reason})
		return b.db.Conn(tx).Exec(ctx, `INSERT INTO paused (project, reason, at) VALUES ($1, $2, `+now+`)
ON CONFLICT (project) DO UPDATE SET reason = excluded.reason, at = excluded.at`, args...)
	})
	if err != nil {
		return fmt.Errorf("%s project %s: %w", verb, project, err)
	}
	return nil
}

// Paused maps each paused project to the reason it was paused.
func (b Board[Tx]) Paused(ctx context.Context) (map[string]string, error) {
	rows, err := b.db.Read().Query(ctx, "SELECT project, reason FROM paused")
	if err != nil {
		return nil, fmt.Errorf("list paused projects: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var p, r string
		if err := rows.Scan(&p, &r); err != nil {
			return nil, fmt.Errorf("list paused projects: %w", err)
		}
		out[p] = r
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list paused projects: %w", err)
	}
	return out, nil
}
