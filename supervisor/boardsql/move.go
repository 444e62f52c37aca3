package boardsql

import (
	"context"
	"fmt"

	"github.com/buildstation/buildstation/supervisor"
)

// Move applies m to task id in one transaction: the state check, the task
// update and the history row commit together or not at all, so two racing
// movers cannot both win and a crash never leaves a task half-moved.
func (b Board[Tx]) Move(ctx context.Context, id string, m supervisor.Move) (supervisor.Task, error) {
	return MoveWith(ctx, b.db, id, m, func(tx Tx, n int64, cur supervisor.Task) (supervisor.Task, error) {
		return Apply(ctx, b.db, tx, n, cur, m)
	})
}

// MoveWith is a store's Move: m checked and id parsed before any
// transaction, then in one write transaction task id read (its row locked
// where rows lock) and step run on it, with the task's row number; step
// applies m, with whatever the store checks or ends around it.
func MoveWith[Tx any](ctx context.Context, db DB[Tx], id string, m supervisor.Move,
	step func(tx Tx, n int64, cur supervisor.Task) (supervisor.Task, error)) (supervisor.Task, error) {
	if err := m.Validate(); err != nil {
		return supervisor.Task{}, fmt.Errorf("move task %s: %w", id, err)
	}
	n, ok := supervisor.ParseTaskID(id)
	if !ok {
		return supervisor.Task{}, fmt.Errorf("move task %s: %w", id, supervisor.ErrNotFound)
	}
	var t supervisor.Task
	err := db.Write(ctx, func(tx Tx) error {
		cur, err := GetTask(ctx, db, db.Conn(tx), n, true)
		if err != nil {
			return err
		}
		t, err = step(tx, n, cur)
		return err
	})
	if err != nil {
		return supervisor.Task{}, fmt.Errorf("move task %s: %w", id, err)
	}
	return t, nil
}

// Apply moves cur (task n, read in tx, and locked where rows lock) as
// supervisor.Task.Apply says at the board's clock, and writes the task and
// its history row in tx. The clock is read after the row was locked, so no
// other writer moves updated_at before this one.
func Apply[Tx any](ctx context.Context, db DB[Tx], tx Tx, n int64, cur supervisor.Task, m supervisor.Move) (supervisor.Task, error) {
	c := db.Conn(tx)
	now, err := db.Clock(ctx, c)
	if err != nil {
		return supervisor.Task{}, err
	}
	t, tr, err := cur.Apply(m, now)
	if err != nil {
		return supervisor.Task{}, err
	}
	notes, err := db.NotesArg(t.Notes)
	if err != nil {
		return supervisor.Task{}, err
	}
	if err := c.Exec(ctx, `UPDATE tasks SET state = $1, attempt = $2, reason = $3, summary = $4, notes = $5, updated_at = $6
WHERE id = $7`, t.State, t.Attempt, t.Reason, t.Summary, notes, db.TimeArg(t.UpdatedAt), n); err != nil {
		return supervisor.Task{}, err
	}
	if err := Record(ctx, db, tx, n, tr); err != nil {
		return supervisor.Task{}, err
	}
	return t, nil
}
