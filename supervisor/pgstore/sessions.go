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

// SaveSession inserts or replaces this station's record with r.ID and
// announces it to the other stations. Its token is stored hashed
// (supervisor.HashToken): whoever reads the shared table cannot act as
// the session; the station keeps the token itself (TokenKeeper).
//
// announces it to the other stations. An ended record stays as it is: a
// station that comes back after the reaper marked its session lost does
// not overwrite that with its own late "ended". Its task must exist (errors.Is
// supervisor.ErrNotFound otherwise): a restarted station reads these to
// learn which tasks lost their session.
func (s *Store) SaveSession(ctx context.Context, r supervisor.SessionRecord) error {
	return boardsql.SaveSession(ctx, pgBoard{s: s}, r, func(tx pgx.Tx, n int64, project string) error {
		if err := notifySession(ctx, tx, s.station, r, project); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO sessions (station, id, task_id, kind, pid, state, started_at, ended_at, backend, handle, token, last_output_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
ON CONFLICT (station, id) DO UPDATE SET task_id = excluded.task_id, kind = excluded.kind, pid = excluded.pid,
	state = excluded.state, started_at = excluded.started_at, ended_at = excluded.ended_at,
	backend = excluded.backend, handle = excluded.handle, token = excluded.token, last_output_at = excluded.last_output_at
WHERE sessions.ended_at IS NULL`,
			s.station, r.ID, n, r.Kind, r.PID, r.State, r.StartedAt.UTC().Truncate(time.Millisecond), toDB(r.EndedAt), r.Backend, r.Handle, supervisor.HashToken(r.Token), toDB(r.LastOutputAt))
		return err
	})
}

// Sessions lists this station's session records by start time; only those
// not ended when liveOnly. Other stations' sessions are theirs to adopt or
// mourn: a station restarting must not take them for its own lost ones.
func (s *Store) Sessions(ctx context.Context, liveOnly bool) ([]supervisor.SessionRecord, error) {
	// A session whose task another live instance of this name leases
	// (an older process that has not yet learnt it lost the name) is that
	// instance's to end, never this one's to mourn.
	sql := `SELECT id, task_id, kind, pid, state, started_at, ended_at, backend, handle, token, last_output_at
FROM sessions WHERE station = $1 AND NOT EXISTS (SELECT 1 FROM leases l WHERE l.task_id = sessions.task_id
	AND l.station = $1 AND l.instance NOT IN ('', $2) AND l.expires_at > clock_timestamp())`
	if liveOnly {
		sql += " AND ended_at IS NULL"
	}
	sql += " ORDER BY started_at, id"
	rows, err := s.pool.Query(ctx, sql, s.station, s.instance)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", reach(err))
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (supervisor.SessionRecord, error) {
		var (
			r              supervisor.SessionRecord
			n              int64
			started        time.Time
			ended, lastOut *time.Time
		)
		err := row.Scan(&r.ID, &n, &r.Kind, &r.PID, &r.State, &started, &ended, &r.Backend, &r.Handle, &r.Token, &lastOut)
		r.TaskID = supervisor.TaskID(n)
		r.StartedAt, r.EndedAt, r.LastOutputAt = started.UTC(), fromDB(ended), fromDB(lastOut)
		return r, err
	})
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", reach(err))
	}
	return out, nil
}

// SetSessionState records the new state of this station's live session id
// and announces it, so the other stations list it as it is. A session that
// ended, or that this station never recorded, is left alone.
func (s *Store) SetSessionState(ctx context.Context, id, state string) error {
	err := s.write(ctx, func(tx pgx.Tx) error {
		var (
			r       = supervisor.SessionRecord{ID: id, State: state}
			n       int64
			project string
		)
		err := tx.QueryRow(ctx, `UPDATE sessions s SET state = $3 FROM tasks t
WHERE s.station = $1 AND s.id = $2 AND s.ended_at IS NULL AND t.id = s.task_id
RETURNING s.task_id, t.project, s.kind, s.pid, s.started_at`, s.station, id, state).Scan(&n, &project, &r.Kind, &r.PID, &r.StartedAt)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		r.TaskID = supervisor.TaskID(n)
		return notifySession(ctx, tx, s.station, r, project)
	})
	if err != nil {
		return fmt.Errorf("record state of session %s: %w", id, err)
	}
	return nil
}

// OtherSessions lists the live sessions of the other stations, oldest
// first: those not ended whose station still holds its task's lease, so a
// dead station's sessions drop out when its lease runs out. They carry what
// the board knows (state, pid, start), no console and no watchdog clock.
func (s *Store) OtherSessions(ctx context.Context) ([]supervisor.SessionInfo, error) {
	rows, err := s.pool.Query(ctx, `SELECT s.station, s.id, s.task_id, t.project, s.kind, s.pid, s.state, s.started_at, s.last_output_at
FROM sessions s
JOIN tasks t ON t.id = s.task_id
JOIN leases l ON l.task_id = s.task_id AND l.station = s.station AND l.expires_at > clock_timestamp()
WHERE s.ended_at IS NULL AND s.station <> $1
ORDER BY s.started_at, s.id`, s.station)
	if err != nil {
		return nil, fmt.Errorf("list the other stations' sessions: %w", reach(err))
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (supervisor.SessionInfo, error) {
		var (
			si      supervisor.SessionInfo
			n       int64
			state   string
			started time.Time
			lastOut *time.Time
		)
		err := row.Scan(&si.Station, &si.ID, &n, &si.Project, &si.Kind, &si.PID, &state, &started, &lastOut)
		si.TaskID, si.StartedAt, si.LastOutputAt = supervisor.TaskID(n), started.UTC(), fromDB(lastOut)
		si.State, _ = supervisor.ParseSessionState(state)
		return si, err
	})
	if err != nil {
		return nil, fmt.Errorf("list the other stations' sessions: %w", reach(err))
	}
	return list, nil
}

// notifySession announces station's session r (of a task of project) when
// tx commits.
func notifySession(ctx context.Context, tx pgx.Tx, station string, r supervisor.SessionRecord, project string) error {
	state, ok := supervisor.ParseSessionState(r.State)
	if !ok || !r.EndedAt.IsZero() {
		state = supervisor.SessEnded // "lost" and any record with an end
	}
	si := &supervisor.SessionInfo{ID: r.ID, TaskID: r.TaskID, Project: project, Kind: r.Kind, State: state,
		PID: r.PID, StartedAt: r.StartedAt.UTC().Truncate(time.Millisecond), Station: station}
	return notify(ctx, tx, Change{TaskID: r.TaskID, Station: station, Session: si, At: time.Now().UTC()})
}

// endSessions ends station's live sessions of task n, whose lease was
// reaped: the station is gone, and so, as far as the board knows, are its
// sessions. Each end is announced.
func endSessions(ctx context.Context, tx pgx.Tx, n int64, station, project string) error {
	rows, err := tx.Query(ctx, `UPDATE sessions SET state = 'lost', ended_at = clock_timestamp()
WHERE task_id = $1 AND station = $2 AND ended_at IS NULL
RETURNING id, kind, pid, started_at, ended_at`, n, station)
	if err != nil {
		return err
	}
	ended, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (supervisor.SessionRecord, error) {
		r := supervisor.SessionRecord{TaskID: supervisor.TaskID(n), State: "lost"}
		return r, row.Scan(&r.ID, &r.Kind, &r.PID, &r.StartedAt, &r.EndedAt)
	})
	if err != nil {
		return err
	}
	for _, r := range ended {
		if err := notifySession(ctx, tx, station, r, project); err != nil {
			return err
		}
	}
	return nil
}
