package boardsql

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// GateResult returns the remembered verdict of project's gate on commit
// sha, so a requeue finds the last green commit without rerunning the gate
// on every commit (on a shared board, whichever station ran it); ok is
// false when the gate never ran there.
func (b Board[Tx]) GateResult(ctx context.Context, project, sha string) (passed bool, tail string, ok bool, err error) {
	err = b.db.Read().QueryRow(ctx, "SELECT passed, output_tail FROM gate_results WHERE project = $1 AND sha = $2",
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
func (b Board[Tx]) SaveGateResult(ctx context.Context, project, sha string, passed bool, tail string) error {
	if err := supervisor.CheckGateResult(project, sha); err != nil {
		return err
	}
	tail = supervisor.BoardText(tail) // a gate's output is any bytes
	err := b.db.Write(ctx, func(tx Tx) error {
		now, args := b.db.Now([]any{project, sha, passed, tail})
		return b.db.Conn(tx).Exec(ctx, `INSERT INTO gate_results (project, sha, passed, output_tail, at) VALUES ($1, $2, $3, $4, `+now+`)
ON CONFLICT (project, sha) DO UPDATE SET passed = excluded.passed, output_tail = excluded.output_tail, at = excluded.at`, args...)
	})
	if err != nil {
		return fmt.Errorf("save gate result of %s at %s: %w", project, sha, err)
	}
	return nil
}

// GateCheckedAt is when the remembered verdict on sha was reached; ok is
// false when the gate never ran there.
func (b Board[Tx]) GateCheckedAt(ctx context.Context, project, sha string) (at time.Time, ok bool, err error) {
	err = b.db.Read().QueryRow(ctx, "SELECT at FROM gate_results WHERE project = $1 AND sha = $2", project, sha).Scan(b.db.Time(&at))
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, fmt.Errorf("gate result time of %s at %s: %w", project, sha, err)
	}
	return at.UTC(), true, nil
}
