package pgstore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/buildstation/buildstation/supervisor"

	"github.com/jackc/pgx/v5"
)

// Leases are how stations sharing a board split its work. A lease says
// "station S runs a session for task T, and takes one of T's project's
// slots, until expires_at". Everything that changes who owns a task locks
// the task's row first and its lease second, so owners change one at a
// time; Renew and Release touch only this station's lease rows.

// projectLockSpace is the first key of the two-key advisory lock that
// serializes ClaimLeased per project ("bs" in ASCII): the second key is a
// hash of the project's name. Two-key locks never collide with migrateLock.
const projectLockSpace int32 = 0x6273

// LeaseError says a station may not move a task it does not own on a shared
// board: another station holds the task's lease, or this station's lease
// was reaped or taken. errors.Is(err, supervisor.ErrConflict) holds.
type LeaseError struct {
	TaskID  string
	Station string // who tried
	Holder  string // who holds the lease now; "" when nobody does
}

func (e *LeaseError) Error() string {
	if e.Holder == "" {
		return fmt.Sprintf("station %s lost its lease on task %s", e.Station, e.TaskID)
	}
	return fmt.Sprintf("task %s is leased by station %s, not %s", e.TaskID, e.Holder, e.Station)
}

func (e *LeaseError) Unwrap() error { return supervisor.ErrConflict }

// ClaimLeased moves the oldest todo task of project to working (history
// actor: the station's name) and leases it to this station for lease, in
// one transaction, unless project already has slots unexpired leases; ok is
// false when there is no free slot or no todo task. Claims of one project
// are serialized by an advisory lock, so two stations cannot both see the
// last free slot.
func (s *Store) ClaimLeased(ctx context.Context, project string, slots int, lease time.Duration) (supervisor.Task, bool, error) {
	if slots < 1 || lease < time.Millisecond {
		return supervisor.Task{}, false, fmt.Errorf("claim a task of %s: want at least 1 slot and a lease of 1ms or more, have %d and %v", project, slots, lease)
	}
	var (
		t     supervisor.Task
		found bool
	)
	err := s.write(ctx, func(tx pgx.Tx) error {
		found = false
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1, hashtext($2))", projectLockSpace, project); err != nil {
			return err
		}
		var live int
		if err := tx.QueryRow(ctx, "SELECT count(*) FROM leases WHERE project = $1 AND expires_at > clock_timestamp()",
			project).Scan(&live); err != nil {
			return err
		}
		if live >= slots {
			return nil
		}
		var err error
		t, found, err = s.claim(ctx, tx, project, s.station)
		if err != nil || !found {
			return err
		}
		n, _ := parseTaskID(t.ID)
		// A todo task has no lease (moving out of working or review ends
		// it), but a row left by hand must not make the claim fail.
		_, err = tx.Exec(ctx, `INSERT INTO leases (task_id, project, station, expires_at)
VALUES ($1, $2, $3, clock_timestamp() + $4 * interval '1 millisecond')
ON CONFLICT (task_id) DO UPDATE SET project = excluded.project, station = excluded.station, expires_at = excluded.expires_at`,
			n, project, s.station, lease.Milliseconds())
		return err
	})
	if err != nil {
		return supervisor.Task{}, false, fmt.Errorf("claim a task of %s: %w", project, err)
	}
	if found {
		s.mu.Lock()
		s.held[t.ID] = true
		s.mu.Unlock()
	}
	return t, found, nil
}

// Renew extends every lease this station holds to lease from now and marks
// the station seen. lost names the tasks this station believed it held but
// no longer does: their lease was reaped or taken, so the station should
// end their sessions without reporting for them. Each is reported once. A
// lease that expired but was not reaped yet is renewed: nobody else owns
// the task yet.
func (s *Store) Renew(ctx context.Context, lease time.Duration) (lost []string, err error) {
	if lease < time.Millisecond {
		return nil, fmt.Errorf("renew leases of station %s: lease %v is under 1ms", s.station, lease)
	}
	// What counts as lost is what was held before the renewal read the
	// leases: a claim that lands meanwhile is not lost for being missing.
	s.mu.Lock()
	believed := make([]string, 0, len(s.held))
	for id := range s.held {
		believed = append(believed, id)
	}
	s.mu.Unlock()

	var have []int64
	err = s.write(ctx, func(tx pgx.Tx) error {
		if err := s.seen(ctx, tx); err != nil {
			return err
		}
		// Lock in task order: two renewals of one station never wait on
		// each other in a cycle.
		rows, err := tx.Query(ctx, `UPDATE leases SET expires_at = clock_timestamp() + $2 * interval '1 millisecond'
WHERE task_id IN (SELECT task_id FROM leases WHERE station = $1 ORDER BY task_id FOR UPDATE)
RETURNING task_id`, s.station, lease.Milliseconds())
		if err != nil {
			return err
		}
		have, err = pgx.CollectRows(rows, pgx.RowTo[int64])
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("renew leases of station %s: %w", s.station, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range believed {
		n, _ := parseTaskID(id)
		if s.held[id] && !slices.Contains(have, n) {
			lost = append(lost, id)
			delete(s.held, id)
		}
	}
	sortIDs(lost)
	return lost, nil
}

// Release gives back this station's lease on task id, and with it the
// project slot, without moving the task. Releasing a lease this station
// does not hold does nothing.
func (s *Store) Release(ctx context.Context, id string) error {
	n, ok := parseTaskID(id)
	if !ok {
		return fmt.Errorf("release task %s: %w", id, supervisor.ErrNotFound)
	}
	err := s.write(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "DELETE FROM leases WHERE task_id = $1 AND station = $2", n, s.station)
		return err
	})
	if err != nil {
		return fmt.Errorf("release task %s: %w", id, err)
	}
	s.forget(id)
	return nil
}

// checkLease refuses a move of task n (id) by this station when another
// station leases it, or when this station held it and its lease is gone.
// It runs with the task's row locked, so the lease cannot change owner
// under it.
func (s *Store) checkLease(ctx context.Context, tx pgx.Tx, n int64, id string) error {
	var holder string
	err := tx.QueryRow(ctx, "SELECT station FROM leases WHERE task_id = $1", n).Scan(&holder)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		if s.holds(id) {
			return &LeaseError{TaskID: id, Station: s.station}
		}
		return nil
	case err != nil:
		return err
	case holder != s.station:
		return &LeaseError{TaskID: id, Station: s.station, Holder: holder}
	}
	return nil
}

// Held lists the tasks this station believes it holds a lease on, oldest
// first: after Open, the leases the board recorded for the station's name,
// which a restarted station re-adopts, releases or blocks.
func (s *Store) Held() []string {
	s.mu.Lock()
	ids := make([]string, 0, len(s.held))
	for id := range s.held {
		ids = append(ids, id)
	}
	s.mu.Unlock()
	sortIDs(ids)
	return ids
}

// sortIDs orders task ids by number, which is creation order.
func sortIDs(ids []string) {
	slices.SortFunc(ids, func(a, b string) int {
		x, _ := parseTaskID(a)
		y, _ := parseTaskID(b)
		return cmp.Compare(x, y)
	})
}

func (s *Store) holds(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.held[id]
}

// forget drops id from what this station holds, after its lease ended by
// this station's own doing.
func (s *Store) forget(id string) {
	s.mu.Lock()
	delete(s.held, id)
	s.mu.Unlock()
}
