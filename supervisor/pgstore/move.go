package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/boardsql"

	"github.com/jackc/pgx/v5"
)

// Move applies m to task id in one transaction. The task's row is locked
// (SELECT … FOR UPDATE) before anything is read, so racing movers, claimers
// and reapers of one task take turns and exactly one of two racing moves
// from the same state wins. A task leased by another station, or whose
// lease this station lost, is refused with a *LeaseError (errors.Is
// supervisor.ErrConflict): a station that was presumed dead must not
// overwrite the transitions of the task's new owner. A move out of working
// and review ends the task's lease: no session runs for it any more.
func (s *Store) Move(ctx context.Context, id string, m supervisor.Move) (supervisor.Task, error) {
	t, err := boardsql.MoveWith(ctx, pgBoard{s: s}, id, m, func(tx pgx.Tx, n int64, cur supervisor.Task) (supervisor.Task, error) {
		if err := s.checkLease(ctx, tx, n, id); err != nil {
			return supervisor.Task{}, err
		}
		return s.apply(ctx, tx, n, cur, m)
	})
	if err != nil {
		return supervisor.Task{}, err
	}
	if !running(t.State) && !m.KeepLease {
		s.forget(id)
	}
	return t, nil
}

// Claim moves the oldest todo task of project to working, clearing its
// reason, in one transaction; ok is false when project has no todo task.
// It takes no lease and no slot: it is the single-station claim the Board
// interface promises. Stations sharing a board use ClaimLeased.
func (s *Store) Claim(ctx context.Context, project, actor string) (supervisor.Task, bool, error) {
	var (
		t     supervisor.Task
		found bool
	)
	err := s.write(ctx, func(tx pgx.Tx) error {
		var err error
		t, found, err = s.claim(ctx, tx, project, actor)
		return err
	})
	if err != nil {
		return supervisor.Task{}, false, fmt.Errorf("claim a task of %s: %w", project, err)
	}
	return t, found, nil
}

// claim moves the oldest todo task of project to working in tx, skipping
// tasks pinned to another station (their work is only there). SKIP
// LOCKED: a todo row another claimer has locked is about to be taken, so
// this one takes the next instead of queueing behind it.
func (s *Store) claim(ctx context.Context, tx pgx.Tx, project, actor string) (supervisor.Task, bool, error) {
	cur, err := boardsql.ScanTask(dialect{}, tx.QueryRow(ctx, "SELECT "+boardsql.TaskColumns(dialect{})+
		" FROM tasks WHERE project = $1 AND state = $2 AND pinned_to IN ('', $3) ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED",
		project, supervisor.TaskTodo, s.station))
	if errors.Is(err, pgx.ErrNoRows) {
		return supervisor.Task{}, false, nil
	}
	if err != nil {
		return supervisor.Task{}, false, err
	}
	n, _ := supervisor.ParseTaskID(cur.ID)
	t, err := s.apply(ctx, tx, n, cur, supervisor.Move{
		From:  []supervisor.TaskState{supervisor.TaskTodo},
		To:    supervisor.TaskWorking,
		Actor: actor,
	})
	return t, err == nil, err
}

// running reports whether a session runs for a task in state st, which is
// what a lease is for.
func running(st supervisor.TaskState) bool {
	return st == supervisor.TaskWorking || st == supervisor.TaskReview
}

// apply moves cur (task n, read and locked in tx) as boardsql.Apply does,
// and ends the task's lease when it stops running.
func (s *Store) apply(ctx context.Context, tx pgx.Tx, n int64, cur supervisor.Task, m supervisor.Move) (supervisor.Task, error) {
	t, err := boardsql.Apply(ctx, pgBoard{s: s}, tx, n, cur, m)
	if err != nil {
		return supervisor.Task{}, err
	}
	if !running(t.State) && !m.KeepLease {
		if _, err := tx.Exec(ctx, "DELETE FROM leases WHERE task_id = $1", n); err != nil {
			return supervisor.Task{}, err
		}
	}
	return t, nil
}
