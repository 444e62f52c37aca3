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
	// Stale: the station's own lease was reaped and the task let to it
	// again; the write came under the old epoch.
	Stale bool
}

func (e *LeaseError) Error() string {
	if e.Stale {
		return fmt.Sprintf("station %s wrote task %s under a lease that has since been let again", e.Station, e.TaskID)
	}
	if e.Holder == "" {
		return fmt.Sprintf("station %s lost its lease on task %s", e.Station, e.TaskID)
	}
	return fmt.Sprintf("task %s is leased by station %s, not %s", e.TaskID, e.Holder, e.Station)
}

func (e *LeaseError) Unwrap() error { return supervisor.ErrConflict }

// ClaimLeased moves the oldest todo task of project to working (history
// actor: the station's name) and leases it to this station for lease, with
// a new epoch, in one transaction, unless project already has slots leases
// (or the board's cap for it, when that is lower); ok is false when there
// is no free slot or no todo task. A lease that expired but was not reaped
// still takes its slot: its agent may be running yet (a frozen machine),
// and the slot comes back only when the reaper ends it. Claims of one
// project are serialized by an advisory lock, so two stations cannot both
// see the last free slot.
func (s *Store) ClaimLeased(ctx context.Context, project string, slots int, lease time.Duration) (supervisor.Task, bool, error) {
	if slots < 1 || lease < time.Millisecond {
		return supervisor.Task{}, false, fmt.Errorf("claim a task of %s: want at least 1 slot and a lease of 1ms or more, have %d and %v", project, slots, lease)
	}
	var (
		t     supervisor.Task
		found bool
		epoch int64
	)
	err := s.write(ctx, func(tx pgx.Tx) error {
		found = false
		if err := s.owns(ctx, tx); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1, hashtext($2))", projectLockSpace, project); err != nil {
			return err
		}
		cap, ok, err := boardCap(ctx, tx, project, s.station)
		if err != nil || !ok {
			return err
		}
		if cap > 0 {
			slots = min(slots, cap)
		}
		var live int
		if err := tx.QueryRow(ctx, "SELECT count(*) FROM leases WHERE project = $1", project).Scan(&live); err != nil {
			return err
		}
		if live >= slots {
			return nil
		}
		t, found, err = s.claim(ctx, tx, project, s.station)
		if err != nil || !found {
			return err
		}
		n, _ := supervisor.ParseTaskID(t.ID)
		// A todo task has no lease (moving out of working or review ends
		// it), but a row left by hand must not make the claim fail.
		return tx.QueryRow(ctx, `INSERT INTO leases (task_id, project, station, instance, epoch, expires_at)
VALUES ($1, $2, $3, $4, nextval('lease_epochs'), clock_timestamp() + $5 * interval '1 millisecond')
ON CONFLICT (task_id) DO UPDATE SET project = excluded.project, station = excluded.station, instance = excluded.instance,
	epoch = excluded.epoch, expires_at = excluded.expires_at
RETURNING epoch`,
			n, project, s.station, s.instance, lease.Milliseconds()).Scan(&epoch)
	})
	if err != nil {
		return supervisor.Task{}, false, fmt.Errorf("claim a task of %s: %w", project, err)
	}
	if found {
		s.mu.Lock()
		s.held[t.ID] = epoch
		s.epochs[t.ID] = epoch
		s.mu.Unlock()
	}
	return t, found, nil
}

// Renew extends every unexpired lease this station holds to lease from now
// and marks the station seen. lost names the tasks this station believed
// it held but no longer does: their lease expired, or was reaped or taken,
// so the station must end their sessions. Each is reported once. An
// expired lease is never renewed, even when nobody reaped it yet: another
// station may count on its agent being gone (see ClaimLeased), and only a
// new claim, with a new epoch, may run the task again.
func (s *Store) Renew(ctx context.Context, lease time.Duration) (lost []string, err error) {
	if lease < time.Millisecond {
		return nil, fmt.Errorf("renew leases of station %s: lease %v is under 1ms", s.station, lease)
	}
	// What counts as lost is what was held before the renewal read the
	// leases: a claim that lands meanwhile is not lost for being missing.
	s.mu.Lock()
	believed := make(map[string]int64, len(s.held))
	for id, e := range s.held {
		believed[id] = e
	}
	s.mu.Unlock()

	var have []heldLease
	err = s.write(ctx, func(tx pgx.Tx) error {
		if err := s.seen(ctx, tx); err != nil {
			return err
		}
		// Lock in task order: two renewals of one station never wait on
		// each other in a cycle.
		rows, err := tx.Query(ctx, `UPDATE leases SET expires_at = clock_timestamp() + $3 * interval '1 millisecond'
WHERE task_id IN (SELECT task_id FROM leases WHERE station = $1 AND instance = $2 ORDER BY task_id FOR UPDATE)
	AND expires_at > clock_timestamp()
RETURNING task_id, epoch`, s.station, s.instance, lease.Milliseconds())
		if err != nil {
			return err
		}
		have, err = pgx.CollectRows(rows, pgx.RowToStructByPos[heldLease])
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("renew leases of station %s: %w", s.station, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, e := range believed {
		n, _ := supervisor.ParseTaskID(id)
		if s.held[id] == e && !slices.Contains(have, heldLease{Task: n, Epoch: e}) {
			lost = append(lost, id)
			delete(s.held, id)
		}
	}
	sortIDs(lost)
	return lost, nil
}

// Epoch is the epoch of this station's lease on task id (its fencing
// token), or 0 when it never held one.
func (s *Store) Epoch(id string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.epochs[id]
}

// boardCap reads the board's settings for project: cap is its concurrency
// (0 when the board sets none), and ok is false when the board lets other
// stations alone run it.
func boardCap(ctx context.Context, tx pgx.Tx, project, station string) (cap int, ok bool, err error) {
	var (
		c        *int
		stations []string
	)
	err = tx.QueryRow(ctx, "SELECT concurrency, stations FROM project_settings WHERE project = $1", project).Scan(&c, &stations)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, true, nil
	}
	if err != nil {
		return 0, false, err
	}
	if len(stations) > 0 && !slices.Contains(stations, station) {
		return 0, false, nil
	}
	if c != nil {
		cap = *c
	}
	return cap, true, nil
}

// Release gives back this station's lease on task id, and with it the
// project slot, without moving the task. Releasing a lease this station
// does not hold does nothing.
func (s *Store) Release(ctx context.Context, id string) error {
	n, ok := supervisor.ParseTaskID(id)
	if !ok {
		return fmt.Errorf("release task %s: %w", id, supervisor.ErrNotFound)
	}
	err := s.write(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "DELETE FROM leases WHERE task_id = $1 AND station = $2 AND ($3 = 0 OR epoch = $3)", n, s.station, s.Epoch(id))
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
//
// It is also the fence: a move by this station carries the epoch of the
// lease it had on the task, and is refused unless the task's lease still
// has that epoch. A lease that expired but nobody took over still lets its
// holder's late writes land (no one else ran the task meanwhile); once
// reaped, or let again (even to this station), it never does.
func (s *Store) checkLease(ctx context.Context, tx pgx.Tx, n int64, id string) error {
	var (
		holder, instance string
		epoch            int64
	)
	mine := s.Epoch(id)
	err := tx.QueryRow(ctx, "SELECT station, epoch, instance FROM leases WHERE task_id = $1", n).Scan(&holder, &epoch, &instance)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		// No lease: the task runs nowhere. A station still believing it
		// holds it learns here that it does not; one that heard of the
		// loss acts as any client does (a move that needs the task
		// running fails on its state).
		if s.holds(id) {
			return &LeaseError{TaskID: id, Station: s.station}
		}
		return nil
	case err != nil:
		return err
	case holder != s.station:
		return &LeaseError{TaskID: id, Station: s.station, Holder: holder}
	case mine != 0 && epoch != mine:
		return &LeaseError{TaskID: id, Station: s.station, Holder: holder, Stale: true}
	case instance != "" && instance != s.instance:
		// A newer instance of this name took the lease over: this
		// process is not that station any more.
		return &LeaseError{TaskID: id, Station: s.station, Holder: holder + " (a newer instance)"}
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
		x, _ := supervisor.ParseTaskID(a)
		y, _ := supervisor.ParseTaskID(b)
		return cmp.Compare(x, y)
	})
}

func (s *Store) holds(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.held[id]
	return ok
}

// forget drops id from what this station holds, after its lease ended by
// this station's own doing.
func (s *Store) forget(id string) {
	s.mu.Lock()
	delete(s.held, id)
	delete(s.epochs, id)
	s.mu.Unlock()
}
