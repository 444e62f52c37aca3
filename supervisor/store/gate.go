package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/buildstation/buildstation/supervisor"
)

// GateResult returns the remembered verdict of project's gate on commit
// sha, so a requeue finds the last green commit without rerunning the gate
// on every commit; ok is false when the gate never ran there.
func (s *Store) GateResult(ctx context.Context, project, sha string) (passed bool, tail string, ok bool, err error) {
	err = s.rd.QueryRowContext(ctx, "SELECT passed, output_tail FROM gate_results WHERE project = ? AND sha = ?",
		project, sha).Scan(&passed, &tail)
	if errors.Is(err, sql.ErrNoRows) {
		return false, "", false, nil
	}
	if err != nil {
		return false, "", false, fmt.Errorf("gate result of %s at %s: %w", project, sha, err)
	}
	return passed, tail, true, nil
}

// SaveGateResult records the verdict of project's gate on sha and the tail
// of its output (what a requeued session is shown when it failed); a rerun
// replaces it.
func (s *Store) SaveGateResult(ctx context.Context, project, sha string, passed bool, tail string) error {
	if err := supervisor.CheckGateResult(project, sha); err != nil {
		return err
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO gate_results (project, sha, passed, output_tail, at) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (project, sha) DO UPDATE SET passed = excluded.passed, output_tail = excluded.output_tail, at = excluded.at`,
			project, sha, passed, tail, s.stamp())
		return err
	})
	if err != nil {
		return fmt.Errorf("save gate result of %s at %s: %w", project, sha, err)
	}
	return nil
}
