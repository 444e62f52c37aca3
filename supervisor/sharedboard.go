package supervisor

import (
	"context"
	"errors"
	"time"
)

// SharedBoard is a board several stations work at once (supervisor/pgstore).
// Claims on it are leases: a station holds a task and one of its project's
// slots only as long as it keeps renewing, so the work of a machine that
// died is blocked for a person to requeue instead of being silently lost,
// and a station that was presumed dead cannot overwrite the new owner's
// moves. A Board that is not a SharedBoard (SQLite) is this station's alone
// and none of this applies.
type SharedBoard interface {
	Board
	// ClaimLeased is Claim plus a lease: the oldest todo task of project,
	// unless slots unexpired leases of project exist already.
	ClaimLeased(ctx context.Context, project string, slots int, lease time.Duration) (Task, bool, error)
	// Renew extends this station's leases; lost names the tasks whose
	// lease was reaped or taken, each once.
	Renew(ctx context.Context, lease time.Duration) (lost []string, err error)
	// Release gives back the lease on task id without moving the task.
	Release(ctx context.Context, id string) error
	// Reap blocks the tasks of every lease expired more than grace ago,
	// of any station, and returns them.
	Reap(ctx context.Context, grace time.Duration) ([]Task, error)
	// Epoch is the fencing token of this station's lease on task id, 0
	// when it holds none: every write of the task carries it, and the
	// board refuses one made under a lease that was let again.
	Epoch(id string) int64
	// Station is the name this station acts under on the board.
	Station() string
	// Held lists the tasks this station holds a lease on.
	Held() []string
	// SetSessionState records a change of state of one of this station's
	// live sessions and announces it to the other stations.
	SetSessionState(ctx context.Context, id, state string) error
	// OtherSessions lists the live sessions of the other stations (those
	// whose station still holds its task's lease), with Station set; they
	// carry no console or watchdog clock.
	OtherSessions(ctx context.Context) ([]SessionInfo, error)
}

// ErrNameTaken is why a shared board refuses a station process whose name
// a newer instance holds now: this one was paused, suspended or cut off
// for longer than its lease, and another started under the name
// meanwhile. It is not that station any more, so it must end its own
// sessions and stop, and never act on one again.
var ErrNameTaken = errors.New("station name taken over by a newer instance")

// Pinner is a shared board that can pin a task to one station: the one
// whose worktree alone holds the task's work, because its project pushes
// no branches to a remote (or the last push failed). Other stations do not
// claim a pinned task; a person may lift the pin when that station is gone
// for good (`task requeue --anywhere`).
type Pinner interface {
	// Pin pins task id to this station.
	Pin(ctx context.Context, id string) error
	// Unpin lifts this station's pin of task id; with anyStation,
	// whoever's it is.
	Unpin(ctx context.Context, id string, anyStation bool) error
}

// Guard is the station's end of its fence guard (platform/guard), a
// process outside the station. Its calls never wait on the guard.
type Guard interface {
	// Watch tells it of a live session: its agent's pid, the marker
	// every process of the session carries, its window's handle (a
	// backend whose sessions outlive the station: tmux), and the file it
	// writes before it ends the session.
	Watch(id string, pid int, marker, window, note string)
	// Unwatch tells it a session ended.
	Unwatch(id string)
	// Deadline tells it the station's agents must be gone within in
	// (monotonic) and by until (wall clock), unless told again: the
	// moment this station's own fence would end them.
	Deadline(in time.Duration, until time.Time)
}

// GuardGrace is how long the guard gives a session's agent between the
// polite signal and the kill: what the station's own fence gives it.
const GuardGrace = 200 * time.Millisecond
