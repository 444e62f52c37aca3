package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/buildstation/buildstation/supervisor"
)

// Move applies m to task id in one transaction: the state check, the task
// update and the history row commit together or not at all, so two racing
// movers cannot both win and a crash never leaves a task half-moved.
func (s *Store) Move(ctx context.Context, id string, m supervisor.Move) (supervisor.Task, error) {
	if err := m.Validate(); err != nil {
		return supervisor.Task{}, fmt.Errorf("move task %s: %w", id, err)
	}
	n, ok := supervisor.ParseTaskID(id)
	if !ok {
		return supervisor.Task{}, fmt.Errorf("move task %s: %w", id, supervisor.ErrNotFound)
	}
	var t supervisor.Task
	err := s.write(ctx, func(tx *sql.Tx) error {
		cur, err := getTask(ctx, tx, n)
		if err != nil {
			return err
		}
		t, err = s.apply(ctx, tx, n, cur, m)
		return err
	})
	if err != nil {
		return supervisor.Task{}, fmt.Errorf("move task %s: %w", id, err)
	}
	return t, nil
}

// Claim moves the oldest todo task of project to working, clearing its
// reason, in one transaction; ok is false when project has no todo task.
func (s *Store) Claim(ctx context.Context, project, actor string) (supervisor.Task, bool, error) {
	var (
		t     supervisor.Task
		found bool
	)
	err := s.write(ctx, func(tx *sql.Tx) error {
		cur, err := scanTask(tx.QueryRowContext(ctx, "SELECT "+taskColumns+
			" FROM tasks WHERE project = ? AND state = ? ORDER BY id LIMIT 1", project, supervisor.TaskTodo))
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		n, _ := supervisor.ParseTaskID(cur.ID)
		t, err = s.apply(ctx, tx, n, cur, supervisor.Move{
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

// apply moves cur (task n, read in tx) as supervisor.Task.Apply says and
// writes the task and its history row in tx.
func (s *Store) apply(ctx context.Context, tx *sql.Tx, n int64, cur supervisor.Task, m supervisor.Move) (supervisor.Task, error) {
	t, tr, err := cur.Apply(m, s.now())
	if err != nil {
		return supervisor.Task{}, err
	}
	notes, err := json.Marshal(t.Notes)
	if err != nil {
		return supervisor.Task{}, err
	}
	if t.Notes == nil {
		notes = []byte("[]")
	}
	if _, err := tx.ExecContext(ctx, `UPDATE tasks SET state = ?, attempt = ?, reason = ?, summary = ?, notes = ?, updated_at = ?
WHERE id = ?`, t.State, t.Attempt, t.Reason, t.Summary, string(notes), toMS(t.UpdatedAt), n); err != nil {
		return supervisor.Task{}, err
	}
	if err := insertTransition(ctx, tx, n, tr); err != nil {
		return supervisor.Task{}, err
	}
	return t, nil
}
