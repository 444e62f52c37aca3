package supervisor

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// TaskState is a column of the board.
type TaskState string

// The board's columns. A task moves between them only through Board.Move, one
// transaction per transition, so a crash never leaves it in two.
const (
	TaskTodo      TaskState = "todo"
	TaskWorking   TaskState = "working"
	TaskReview    TaskState = "review"
	TaskBlocked   TaskState = "blocked"
	TaskDone      TaskState = "done"
	TaskCancelled TaskState = "cancelled"
)

// TaskStates lists every column in board order.
var TaskStates = []TaskState{TaskTodo, TaskWorking, TaskReview, TaskBlocked, TaskDone, TaskCancelled}

func (s TaskState) String() string { return string(s) }

// Valid reports whether s is one of the board's columns.
func (s TaskState) Valid() bool {
	for _, v := range TaskStates {
		if s == v {
			return true
		}
	}
	return false
}

// Final reports whether no session will ever run for a task in s again
// without a person acting (requeue is the only way out of blocked).
func (s TaskState) Final() bool { return s == TaskDone || s == TaskCancelled }

// Task is one unit of work handed to one agent session at a time. Its JSON
// field names are part of the CLI contract (`task ls --json`).
type Task struct {
	ID        string    `json:"id"`
	Project   string    `json:"project"`
	Title     string    `json:"title"`
	Body      string    `json:"body"`
	State     TaskState `json:"state"`
	Attempt   int       `json:"attempt"`
	Reason    string    `json:"reason"`
	Summary   string    `json:"summary,omitempty"`
	Notes     []string  `json:"notes,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// Pinned, on a shared board, names the station whose worktree alone
	// holds the task's work (its project pushes no branches, or its last
	// push failed): no other station claims it.
	Pinned string `json:"pinned,omitempty"`
	// External is the issue the task was imported from (nil: added by
	// hand).
	External *External `json:"external,omitempty"`
}

// PinNote says, for a task waiting for a station (todo, blocked or
// cancelled) that is pinned to one, where it can run; "" otherwise. A
// running or finished task's pin says nothing a person needs.
func (t Task) PinNote() string {
	if t.Pinned == "" || t.State != TaskTodo && t.State != TaskBlocked && t.State != TaskCancelled {
		return ""
	}
	return "pinned to station " + t.Pinned + ": its work is only there"
}

// Transition is one entry of a task's history.
type Transition struct {
	TaskID  string    `json:"task_id"`
	From    TaskState `json:"from"`
	To      TaskState `json:"to"`
	Attempt int       `json:"attempt"`
	Reason  string    `json:"reason,omitempty"`
	Actor   string    `json:"actor,omitempty"`
	At      time.Time `json:"at"`
}

// NewTask is what a user hands the board.
type NewTask struct {
	Project string
	Title   string
	Body    string
	// External, when set, is the issue the task is imported from; a
	// board holds one task per issue (ErrDuplicateExternal).
	External *External
}

// Move is one transition request. It applies only when the task is in one of
// From, so two racing movers cannot both win.
type Move struct {
	From    []TaskState
	To      TaskState
	Reason  string // replaces Task.Reason (empty clears it)
	Summary string // set when non-empty
	Note    string // appended to Task.Notes when non-empty
	Actor   string // who moved it: "station", "cli", "agent", "watchdog", …
	// BumpAttempt adds one to Task.Attempt (requeue, review round).
	BumpAttempt bool
	// KeepLease keeps a shared board's lease (and its slot) past a move
	// out of working or review, until the mover releases it: the move's
	// session is still being ended, and its slot is not free before its
	// agent is gone.
	KeepLease bool `json:",omitempty"`
	// Attempt, when not 0, is the run the move is for: the task must still
	// be on it. An agent's report arrives late at times (it retries while
	// the station restarts); it must never settle a later run of its task.
	Attempt int `json:",omitempty"`
}

// Check says why m cannot move cur, or nil: the one rule every board
// applies before it writes (the state it comes from, the run it is for).
func (m Move) Check(cur Task) error {
	if !slices.Contains(m.From, cur.State) {
		return &StateError{ID: cur.ID, Have: cur.State, Want: slices.Clone(m.From)}
	}
	if m.Attempt != 0 && cur.Attempt != m.Attempt {
		return &AttemptError{ID: cur.ID, Have: cur.Attempt, Want: m.Attempt}
	}
	return nil
}

// TaskFilter narrows Board.Tasks. Zero value: every task.
type TaskFilter struct {
	State   TaskState
	Project string
	// Limit caps the list at that many tasks (0: no cap). After starts the
	// list after that task id: a page's last id fetches the next page.
	Limit int
	After string
	// Newest lists newest first, and After then pages towards older
	// tasks: how the tray reads the newest of the done tasks alone.
	Newest bool
}

// Page applies f's After and Limit to a list already filtered and in
// board order, for a board that lists in memory.
func (f TaskFilter) Page(ts []Task) []Task {
	if f.Newest {
		ts = slices.Clone(ts)
		slices.Reverse(ts)
	}
	if f.After != "" {
		for i, t := range ts {
			if t.ID == f.After {
				ts = ts[i+1:]
				break
			}
		}
	}
	if f.Limit > 0 && len(ts) > f.Limit {
		ts = ts[:f.Limit]
	}
	return ts
}

// BadCursor is a board's error for a TaskFilter.After that is no task id.
func BadCursor(id string) error {
	return &UserError{Msg: fmt.Sprintf("%q is not a task id; page with the last id of the previous page, like t42", id), Kind: ErrInvalid}
}

// TaskCounter is a Board that counts tasks per state without reading
// them (both stores do, from counts their triggers keep per state):
// status stays fast on a large board.
type TaskCounter interface {
	CountTasks(ctx context.Context) (map[TaskState]int, error)
}

// Errors a Board returns; callers test them with errors.Is.
var (
	ErrNotFound = errors.New("not found")
	ErrConflict = errors.New("conflict")
	// ErrInvalid marks bad input from a person or an agent: the message
	// says what to do, and nothing was changed.
	ErrInvalid = errors.New("invalid")
)

// UserError is an error whose text is one whole sentence for a person: what
// went wrong and what to do. Kind is ErrInvalid, ErrNotFound or ErrConflict,
// for the API's status code.
type UserError struct {
	Msg  string
	Kind error
}

func (e *UserError) Error() string { return e.Msg }
func (e *UserError) Unwrap() error { return e.Kind }

// Invalidf formats a bad-input error (errors.Is ErrInvalid).
func Invalidf(format string, args ...any) error {
	return &UserError{Msg: fmt.Sprintf(format, args...), Kind: ErrInvalid}
}

// NotFoundf formats an unknown-thing error (errors.Is ErrNotFound).
func NotFoundf(format string, args ...any) error {
	return &UserError{Msg: fmt.Sprintf(format, args...), Kind: ErrNotFound}
}

// Conflictf formats a wrong-state error (errors.Is ErrConflict).
func Conflictf(format string, args ...any) error {
	return &UserError{Msg: fmt.Sprintf(format, args...), Kind: ErrConflict}
}

var ()

// StateError says a task was not in a state a move needed.
type StateError struct {
	ID   string
	Have TaskState
	Want []TaskState
}

func (e *StateError) Error() string {
	return fmt.Sprintf("task %s is %s, not %v", e.ID, e.Have, e.Want)
}

func (e *StateError) Unwrap() error { return ErrConflict }

// AttemptError is a move for a run of a task that is over: the task has
// moved on to another attempt.
type AttemptError struct {
	ID         string
	Have, Want int
}

func (e *AttemptError) Error() string {
	return fmt.Sprintf("task %s is on attempt %d, not %d", e.ID, e.Have, e.Want)
}

func (e *AttemptError) Unwrap() error { return ErrConflict }

// Review verdicts, as complete_review takes them.
const (
	VerdictApprove = "approve"
	VerdictChanges = "changes"
)
