package supervisor

import (
	"errors"
	"fmt"
	"strings"
)

// What a board checks of what it is handed before it opens a transaction:
// one rule, worded one way, whichever board a station uses.

// Validate says why a board refuses to add nt, or nil.
func (nt NewTask) Validate() error {
	if strings.TrimSpace(nt.Project) == "" || strings.TrimSpace(nt.Title) == "" {
		return errors.New("a task needs a project and a title")
	}
	return nil
}

// CheckPause checks a pause (or, when !paused, a resume) of project's
// queue, and names the change for the board's errors.
func CheckPause(project string, paused bool) (verb string, err error) {
	if project == "" {
		return "", errors.New("pause: empty project name")
	}
	if paused {
		return "pause", nil
	}
	return "resume", nil
}

// CheckGateResult checks the key of a gate verdict a board is asked to
// remember.
func CheckGateResult(project, sha string) error {
	if project == "" || sha == "" {
		return errors.New("save gate result: empty project or sha")
	}
	return nil
}

// CheckSession checks a session record a board is asked to save, and
// returns the row number of its task (errors.Is ErrNotFound when its task
// id names no task).
func CheckSession(r SessionRecord) (task int64, err error) {
	if r.ID == "" {
		return 0, errors.New("save session: empty id")
	}
	n, ok := ParseTaskID(r.TaskID)
	if !ok {
		return 0, fmt.Errorf("save session %s: task %s: %w", r.ID, r.TaskID, ErrNotFound)
	}
	return n, nil
}

// Cursor is the row number of the task f.After names, 0 when f has no
// After; BadCursor's error when After is not a task id. A board lists the
// tasks past it: of higher numbers, or of lower ones when f.Newest.
func (f TaskFilter) Cursor() (int64, error) {
	if f.After == "" {
		return 0, nil
	}
	n, ok := ParseTaskID(f.After)
	if !ok {
		return 0, BadCursor(f.After)
	}
	return n, nil
}
