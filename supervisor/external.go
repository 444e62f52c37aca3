package supervisor

import (
	"context"
	"errors"
	"strings"
	"time"
)

// The kinds of issue tracker a task can come from: an External's Kind
// and a [[sources]] table's kind.
const (
	KindGitHub = "github"
	KindLinear = "linear"
)

// External names the issue a task was imported from (a GitHub issue, a
// Linear issue): what the task's card, `task show` and the tray link to,
// and what the station writes its progress back to. Its JSON is part of
// the contract (`task show --json`: external.kind, .id, .url).
type External struct {
	Kind string `json:"kind"` // KindGitHub or KindLinear
	ID   string `json:"id"`   // "acme/web#12", "ENG-142": unique per kind on a board
	URL  string `json:"url"`
}

// IsZero reports whether e names no issue.
func (e *External) IsZero() bool { return e == nil || e.ID == "" }

// TaskEditor is a Board that can change a queued task's title and body:
// an issue edited upstream updates the task that has not started yet.
type TaskEditor interface {
	// EditTask sets task id's title and body while it is todo; a
	// *StateError (errors.Is ErrConflict) otherwise.
	EditTask(ctx context.Context, id, title, body string) (Task, error)
}

// ErrDuplicateExternal is a board's refusal to add a second task for an
// issue it already has a task for (errors.Is ErrConflict): an issue is
// imported exactly once, even by two stations at once.
var ErrDuplicateExternal = &UserError{Msg: "a task for this issue is on the board already", Kind: ErrConflict}

// IsDuplicateExternal reports whether err is ErrDuplicateExternal.
func IsDuplicateExternal(err error) bool { return errors.Is(err, ErrDuplicateExternal) }

// Edit is t with a new title and body at the board's clock at, or why a
// board refuses it: only a task that has not started is edited, so a
// running agent's task never changes under it.
func (t Task) Edit(title, body string, at time.Time) (Task, error) {
	if strings.TrimSpace(title) == "" {
		return Task{}, Invalidf("task %s needs a title", t.ID)
	}
	if t.State != TaskTodo {
		return Task{}, &StateError{ID: t.ID, Have: t.State, Want: []TaskState{TaskTodo}}
	}
	t.Title, t.Body, t.UpdatedAt = BoardText(title), BoardText(body), later(at, t.UpdatedAt)
	return t, nil
}
