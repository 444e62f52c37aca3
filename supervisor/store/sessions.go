package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/boardsql"
)

// SaveSession inserts or replaces the record with s.ID. Its task must exist
// (errors.Is supervisor.ErrNotFound otherwise): a restarted station reads
// these to learn which tasks lost their session.
func (s *Store) SaveSession(ctx context.Context, r supervisor.SessionRecord) error {
	var ended any // NULL while live
	if !r.EndedAt.IsZero() {
		ended = toMS(r.EndedAt)
	}
	var lastOut int64
	if !r.LastOutputAt.IsZero() {
		lastOut = toMS(r.LastOutputAt)
	}
	return boardsql.SaveSession(ctx, sqlBoard{s}, r, func(tx *sql.Tx, n int64, _ string) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO sessions (id, task_id, kind, pid, state, started_at, ended_at, backend, handle, token, last_output_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (id) DO UPDATE SET task_id = excluded.task_id, kind = excluded.kind, pid = excluded.pid,
	state = excluded.state, started_at = excluded.started_at, ended_at = excluded.ended_at,
	backend = excluded.backend, handle = excluded.handle, token = excluded.token, last_output_at = excluded.last_output_at`,
			r.ID, n, r.Kind, r.PID, r.State, toMS(r.StartedAt), ended, r.Backend, r.Handle, r.Token, lastOut)
		return err
	})
}

// Sessions lists session records by start time; only those not ended when
// liveOnly.
func (s *Store) Sessions(ctx context.Context, liveOnly bool) ([]supervisor.SessionRecord, error) {
	q := "SELECT id, task_id, kind, pid, state, started_at, ended_at, backend, handle, token, last_output_at FROM sessions"
	if liveOnly {
		q += " WHERE ended_at IS NULL"
	}
	q += " ORDER BY started_at, id"
	rows, err := s.rd.QueryContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	var out []supervisor.SessionRecord
	for rows.Next() {
		var (
			r       supervisor.SessionRecord
			n       int64
			started int64
			ended   sql.NullInt64
			lastOut int64
		)
		if err := rows.Scan(&r.ID, &n, &r.Kind, &r.PID, &r.State, &started, &ended, &r.Backend, &r.Handle, &r.Token, &lastOut); err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		r.TaskID = supervisor.TaskID(n)
		r.StartedAt = fromMS(started)
		if ended.Valid {
			r.EndedAt = fromMS(ended.Int64)
		}
		if lastOut != 0 {
			r.LastOutputAt = fromMS(lastOut)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	return out, nil
}
