package pgstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/buildstation/buildstation/supervisor"

	"github.com/jackc/pgx/v5"
)

// SaveSession inserts or replaces this station's record with r.ID. Its task
// must exist (errors.Is supervisor.ErrNotFound otherwise): a restarted
// station reads these to learn which tasks lost their session.
func (s *Store) SaveSession(ctx context.Context, r supervisor.SessionRecord) error {
	if r.ID == "" {
		return fmt.Errorf("save session: empty id")
	}
	n, ok := parseTaskID(r.TaskID)
	if !ok {
		return fmt.Errorf("save session %s: task %s: %w", r.ID, r.TaskID, supervisor.ErrNotFound)
	}
	err := s.write(ctx, func(tx pgx.Tx) error {
		var one int
		if err := tx.QueryRow(ctx, "SELECT 1 FROM tasks WHERE id = $1", n).Scan(&one); errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("task %s: %w", r.TaskID, supervisor.ErrNotFound)
		} else if err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO sessions (station, id, task_id, kind, pid, state, started_at, ended_at, backend, handle, token, last_output_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
ON CONFLICT (station, id) DO UPDATE SET task_id = excluded.task_id, kind = excluded.kind, pid = excluded.pid,
	state = excluded.state, started_at = excluded.started_at, ended_at = excluded.ended_at,
	backend = excluded.backend, handle = excluded.handle, token = excluded.token, last_output_at = excluded.last_output_at`,
			s.station, r.ID, n, r.Kind, r.PID, r.State, r.StartedAt.UTC().Truncate(time.Millisecond), toDB(r.EndedAt), r.Backend, r.Handle, r.Token, toDB(r.LastOutputAt))
		return err
	})
	if err != nil {
		return fmt.Errorf("save session %s: %w", r.ID, err)
	}
	return nil
}

// Sessions lists this station's session records by start time; only those
// not ended when liveOnly. Other stations' sessions are theirs to adopt or
// mourn: a station restarting must not take them for its own lost ones.
func (s *Store) Sessions(ctx context.Context, liveOnly bool) ([]supervisor.SessionRecord, error) {
	sql := `SELECT id, task_id, kind, pid, state, started_at, ended_at, backend, handle, token, last_output_at
FROM sessions WHERE station = $1`
	if liveOnly {
		sql += " AND ended_at IS NULL"
	}
	sql += " ORDER BY started_at, id"
	rows, err := s.pool.Query(ctx, sql, s.station)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (supervisor.SessionRecord, error) {
		var (
			r              supervisor.SessionRecord
			n              int64
			started        time.Time
			ended, lastOut *time.Time
		)
		err := row.Scan(&r.ID, &n, &r.Kind, &r.PID, &r.State, &started, &ended, &r.Backend, &r.Handle, &r.Token, &lastOut)
		r.TaskID = taskID(n)
		r.StartedAt, r.EndedAt, r.LastOutputAt = started.UTC(), fromDB(ended), fromDB(lastOut)
		return r, err
	})
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	return out, nil
}
