package supervisor

import (
	"context"
	"time"
)

// Board persists tasks, their history and the station's session records.
// The embedded implementation is SQLite (supervisor/store); a team's shared
// board is PostgreSQL. Every method that changes state is one transaction:
// once it returns nil the change survives a kill -9.
type Board interface {
	AddTask(ctx context.Context, t NewTask) (Task, error)
	Task(ctx context.Context, id string) (Task, error)
	// Tasks lists tasks oldest first.
	Tasks(ctx context.Context, f TaskFilter) ([]Task, error)
	History(ctx context.Context, id string) ([]Transition, error)
	// Move applies m to task id atomically; a *StateError (errors.Is
	// ErrConflict) when the task is not in one of m.From.
	Move(ctx context.Context, id string, m Move) (Task, error)
	// Claim moves the oldest todo task of project to working in one
	// transaction and returns it; ok is false when there is none.
	Claim(ctx context.Context, project, actor string) (t Task, ok bool, err error)

	// SaveSession inserts or updates a session record.
	SaveSession(ctx context.Context, s SessionRecord) error
	// Sessions lists session records; live only when liveOnly.
	Sessions(ctx context.Context, liveOnly bool) ([]SessionRecord, error)

	// Project pause state survives restarts.
	SetPaused(ctx context.Context, project string, paused bool, reason string) error
	Paused(ctx context.Context) (map[string]string, error)

	Close() error
}

// Generational is a board that can tell whether it changed: Generation
// returns a number that differs whenever the board's content may have
// changed, by this process or another, so an answer computed after reading
// generation g still holds while Generation returns g. Only a board with a
// single file can promise this (SQLite); a shared board, where other
// stations write, does not implement it.
type Generational interface {
	Generation(ctx context.Context) (uint64, error)
}

// SessionRecord is what the board keeps of a session, so a restarted station
// knows which tasks lost theirs.
type SessionRecord struct {
	ID        string      `json:"id"`
	TaskID    string      `json:"task_id"`
	Kind      SessionKind `json:"kind"`
	PID       int         `json:"pid"`
	State     string      `json:"state"`
	StartedAt time.Time   `json:"started_at"`
	EndedAt   time.Time   `json:"ended_at,omitzero"`
	// Backend and Handle find a session that outlives the station (tmux);
	// Token lets its agent keep reporting after a restart.
	Backend string `json:"backend,omitempty"`
	Handle  string `json:"handle,omitempty"`
	Token   string `json:"-"`
	// LastOutputAt restores the watchdog's timers on re-adoption.
	LastOutputAt time.Time `json:"last_output_at,omitzero"`
}
