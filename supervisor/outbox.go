package supervisor

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrUnreachable marks a board error that says nothing about the write
// itself: the server could not be reached, or did not answer in time. The
// write may be retried, or queued.
var ErrUnreachable = errors.New("board unreachable")

// Outbox keeps the writes a station owes a shared board (supervisor/outbox).
type Outbox interface {
	// Add appends e durably and returns its sequence number.
	Add(ctx context.Context, e OutboxEntry) (int64, error)
	// List returns the queued entries, oldest first.
	List(ctx context.Context) ([]OutboxEntry, error)
	// Remove drops entry seq.
	Remove(ctx context.Context, seq int64) error
}

// OutboxEntry is one write owed to the board.
type OutboxEntry struct {
	Seq    int64  `json:"-"`
	Kind   string `json:"kind"` // "move", "session" or "release"
	TaskID string `json:"task_id"`
	// Epoch is the lease the write was made under (0: none). It is
	// replayed only while the station still holds that lease, or the
	// board would take a write from a lease that was let again.
	Epoch int64 `json:"epoch,omitempty"`
	// Attempt is the task's attempt the write was made in (0: unknown).
	Attempt int            `json:"attempt,omitempty"`
	Move    *Move          `json:"move,omitempty"`
	Session *SessionRecord `json:"session,omitempty"`
	Queued  time.Time      `json:"queued"`
}

// TokenKeeper keeps the session tokens of this station's sessions on this
// machine, while a shared board keeps only their hashes: a restarted
// station needs the token itself to adopt a session that outlived it, and
// to find its processes by the marker in their environment. An ended
// session's token is forgotten: no one needs it again.
type TokenKeeper interface {
	KeepToken(ctx context.Context, sessionID, token string) error
	Token(ctx context.Context, sessionID string) (string, bool)
	ForgetToken(ctx context.Context, sessionID string) error
}

// BoardLink is how this station's connection to a shared board stands, as
// status shows it.
type BoardLink struct {
	Reachable bool `json:"reachable"`
	// DownSince is when the board stopped answering; zero while it answers.
	DownSince time.Time `json:"down_since,omitzero"`
	// Queued counts the writes waiting in the outbox.
	Queued int    `json:"queued"`
	Error  string `json:"error,omitempty"`
}

// Away says that the board does not answer, as status and the tray say
// it: "board unreachable since 12:03:10, retrying (3 transitions queued)".
func (l BoardLink) Away() string {
	line := "board unreachable"
	if !l.DownSince.IsZero() {
		line += " since " + l.DownSince.Local().Format("15:04:05")
	}
	line += ", retrying"
	if l.Queued > 0 {
		line += fmt.Sprintf(" (%d transitions queued)", l.Queued)
	}
	return line
}
