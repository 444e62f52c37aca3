package outbox

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/buildstation/buildstation/supervisor/source"
)

var _ source.Ledger = (*Box)(nil)

// The source writes live in their own table of the outbox: they are owed
// to a GitHub repository or a Linear team, not to the board, and their
// key is unique for ever, so a write is queued once and sent once.
const sourcesTable = `CREATE TABLE IF NOT EXISTS source_writes (
	seq    INTEGER PRIMARY KEY AUTOINCREMENT,
	key    TEXT NOT NULL UNIQUE,
	entry  TEXT NOT NULL,
	queued TEXT NOT NULL,
	tried  INTEGER NOT NULL DEFAULT 0,
	done   TEXT,              -- NULL while owed
	url    TEXT NOT NULL DEFAULT '',
	why    TEXT NOT NULL DEFAULT ''
)`

// Queue keeps w unless its key was queued before.
func (b *Box) Queue(ctx context.Context, w source.Write) (bool, error) {
	js, err := json.Marshal(w)
	if err != nil {
		return false, fmt.Errorf("queue a write for %s: %w", w.Ref.ID, err)
	}
	res, err := b.db.ExecContext(ctx, "INSERT OR IGNORE INTO source_writes (key, entry, queued) VALUES (?, ?, ?)",
		w.Key, string(js), time.Now().UTC().Format(time.RFC3339Nano))
	if err != nil {
		return false, fmt.Errorf("queue a write for %s: %w", w.Ref.ID, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// Pending lists the writes still owed, oldest first.
func (b *Box) Pending(ctx context.Context) ([]source.Write, error) {
	rows, err := b.db.QueryContext(ctx, "SELECT entry, tried FROM source_writes WHERE done IS NULL ORDER BY seq")
	if err != nil {
		return nil, fmt.Errorf("read the source writes: %w", err)
	}
	defer rows.Close()
	var out []source.Write
	for rows.Next() {
		var (
			js    string
			tried bool
			w     source.Write
		)
		if err := rows.Scan(&js, &tried); err != nil {
			return nil, fmt.Errorf("read the source writes: %w", err)
		}
		if err := json.Unmarshal([]byte(js), &w); err != nil {
			return nil, fmt.Errorf("read the source writes: %w", err)
		}
		w.Tried = tried
		out = append(out, w)
	}
	return out, rows.Err()
}

// Try marks write key as attempted.
func (b *Box) Try(ctx context.Context, key string) error {
	if _, err := b.db.ExecContext(ctx, "UPDATE source_writes SET tried = 1 WHERE key = ?", key); err != nil {
		return fmt.Errorf("mark write %s: %w", key, err)
	}
	return nil
}

// Done records that write key landed (why: or was refused for good).
func (b *Box) Done(ctx context.Context, key string, s source.Sent, why string) error {
	if _, err := b.db.ExecContext(ctx, "UPDATE source_writes SET done = ?, url = ?, why = ? WHERE key = ?",
		time.Now().UTC().Format(time.RFC3339Nano), s.URL, why, key); err != nil {
		return fmt.Errorf("mark write %s done: %w", key, err)
	}
	return nil
}

// Made is what write key made, once it landed.
func (b *Box) Made(ctx context.Context, key string) (source.Sent, bool) {
	var s source.Sent
	err := b.db.QueryRowContext(ctx, "SELECT url FROM source_writes WHERE key = ? AND done IS NOT NULL AND why = ''", key).Scan(&s.URL)
	if errors.Is(err, sql.ErrNoRows) || err != nil {
		return source.Sent{}, false
	}
	return s, true
}
