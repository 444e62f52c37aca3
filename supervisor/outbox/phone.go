package outbox

import (
	"context"
	"fmt"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// The notices owed to the phone's service live in their own table of the
// outbox: they are owed to ntfy or a webhook, not to the board, and they
// go in the order they were kept. A row is kept before the first send and
// deleted once the service took it (or the notice is over), so a station
// that stops meanwhile sends it when it starts again.
const phoneTable = `CREATE TABLE IF NOT EXISTS phone_notes (
	seq    INTEGER PRIMARY KEY AUTOINCREMENT,
	note   TEXT    NOT NULL,
	queued TEXT    NOT NULL,
	tries  INTEGER NOT NULL DEFAULT 0
)`

// KeepNote keeps note, durably once it returns, and returns its number.
func (b *Box) KeepNote(ctx context.Context, note []byte) (int64, error) {
	res, err := b.db.ExecContext(ctx, "INSERT INTO phone_notes (note, queued) VALUES (?, ?)", string(note), time.Now().UTC().Format(time.RFC3339Nano))
	if err != nil {
		return 0, fmt.Errorf("keep a notice for the phone: %w", err)
	}
	return res.LastInsertId()
}

// OwedNotes lists the notices the phone's service has not taken yet,
// oldest first.
func (b *Box) OwedNotes(ctx context.Context) ([]supervisor.PhoneNote, error) {
	rows, err := b.db.QueryContext(ctx, "SELECT seq, note, queued, tries FROM phone_notes ORDER BY seq")
	if err != nil {
		return nil, fmt.Errorf("read the notices owed to the phone: %w", err)
	}
	defer rows.Close()
	var out []supervisor.PhoneNote
	for rows.Next() {
		var (
			n      supervisor.PhoneNote
			note   string
			queued string
		)
		if err := rows.Scan(&n.Seq, &note, &queued, &n.Tries); err != nil {
			return nil, fmt.Errorf("read the notices owed to the phone: %w", err)
		}
		n.Note = []byte(note)
		n.Queued, _ = time.Parse(time.RFC3339Nano, queued)
		out = append(out, n)
	}
	return out, rows.Err()
}

// NoteTried counts a failed send of notice seq.
func (b *Box) NoteTried(ctx context.Context, seq int64) error {
	if _, err := b.db.ExecContext(ctx, "UPDATE phone_notes SET tries = tries + 1 WHERE seq = ?", seq); err != nil {
		return fmt.Errorf("count a try of phone notice %d: %w", seq, err)
	}
	return nil
}

// NoteDone drops notice seq: the service took it, or it is over.
func (b *Box) NoteDone(ctx context.Context, seq int64) error {
	if _, err := b.db.ExecContext(ctx, "DELETE FROM phone_notes WHERE seq = ?", seq); err != nil {
		return fmt.Errorf("drop phone notice %d: %w", seq, err)
	}
	return nil
}
