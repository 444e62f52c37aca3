package supervisor

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// Validate says why no task could satisfy m, or nil: such a move is a bug
// in its caller, not a conflict, so a board refuses it before it reads the
// task.
func (m Move) Validate() error {
	if !m.To.Valid() {
		return fmt.Errorf("unknown state %q", m.To)
	}
	if len(m.From) == 0 {
		return errors.New("a move needs at least one from-state")
	}
	return nil
}

// Apply is the board's one transition rule: what m makes of t at time at,
// and the history row that records it. Every board reads the task, calls
// Apply and only persists what it returns, so the boards cannot disagree
// on what a move does.
//
// A board keeps times to the millisecond, and a task's UpdatedAt strictly
// increases with every change, even within one millisecond or across a
// clock stepped back, so "changed since" is a plain comparison: the new
// UpdatedAt is at, or one millisecond past the old one when at is not
// later.
func (t Task) Apply(m Move, at time.Time) (Task, Transition, error) {
	if err := m.Validate(); err != nil {
		return Task{}, Transition{}, err
	}
	if err := m.Check(t); err != nil {
		return Task{}, Transition{}, err
	}
	m = m.clean()
	n := t
	n.State = m.To
	n.Reason = m.Reason
	if m.Summary != "" {
		n.Summary = m.Summary
	}
	if m.Note != "" {
		// A copy: the caller's task keeps its own notes.
		n.Notes = append(slices.Clone(t.Notes), m.Note)
	}
	if m.BumpAttempt {
		n.Attempt++
	}
	n.UpdatedAt = later(at, t.UpdatedAt)
	tr := Transition{TaskID: t.ID, From: t.State, To: n.State, Attempt: n.Attempt, Reason: n.Reason, Actor: m.Actor, At: n.UpdatedAt}
	return n, tr, nil
}

// later is at in UTC to the millisecond, or prev plus one millisecond when
// at is not past prev.
func later(at, prev time.Time) time.Time {
	at = at.UTC().Truncate(time.Millisecond)
	if step := prev.UTC().Truncate(time.Millisecond).Add(time.Millisecond); at.Before(step) {
		return step
	}
	return at
}
