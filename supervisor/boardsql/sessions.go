package boardsql

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/buildstation/buildstation/supervisor"
)

// SaveSession is a store's SaveSession: r checked before any transaction,
// then in one write transaction its task found (errors.Is
// supervisor.ErrNotFound when there is none: a restarted station reads
// these records to learn which tasks lost their session) and save run,
// the store's own write of r, with the task's row number and project.
func SaveSession[Tx any](ctx context.Context, db DB[Tx], r supervisor.SessionRecord,
	save func(tx Tx, n int64, project string) error) error {
	n, err := supervisor.CheckSession(r)
	if err != nil {
		return err
	}
	err = db.Write(ctx, func(tx Tx) error {
		var project string
		err := db.Conn(tx).QueryRow(ctx, "SELECT project FROM tasks WHERE id = $1", n).Scan(&project)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("task %s: %w", r.TaskID, supervisor.ErrNotFound)
		}
		if err != nil {
			return err
		}
		return save(tx, n, project)
	})
	if err != nil {
		return fmt.Errorf("save session %s: %w", r.ID, err)
	}
	return nil
}
