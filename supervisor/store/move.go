package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/boardsql"
)

// Claim moves the oldest todo task of project to working, clearing its
// reason, in one transaction; ok is false when project has no todo task.
func (s *Store) Claim(ctx context.Context, project, actor string) (supervisor.Task, bool, error) {
	var (
		t     supervisor.Task
		found bool
		b     = sqlBoard{s}
	)
	err := s.write(ctx, func(tx *sql.Tx) error {
		cur, err := boardsql.ScanTask(b, tx.QueryRowContext(ctx, "SELECT "+boardsql.TaskColumns(b)+
			" FROM tasks WHERE project = ? AND state = ? ORDER BY id LIMIT 1", project, supervisor.TaskTodo))
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		n, _ := supervisor.ParseTaskID(cur.ID)
		t, err = boardsql.Apply(ctx, b, tx, n, cur, supervisor.Move{
			From:  []supervisor.TaskState{supervisor.TaskTodo},
			To:    supervisor.TaskWorking,
			Actor: actor,
		})
		found = err == nil
		return err
	})
	if err != nil {
		return supervisor.Task{}, false, fmt.Errorf("claim a task of %s: %w", project, err)
	}
	return t, found, nil
}
