package outbox

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor"

	_ "modernc.org/sqlite" // the driver the station's board uses too
)

// File is the outbox's name in the home.
const File = "outbox.db"

// Box is one station's outbox. It is safe for concurrent use.
type Box struct {
	db *sql.DB
}

var _ supervisor.Outbox = (*Box)(nil)

// Open opens (creating, mode 0600) the outbox at path.
func Open(path string) (*Box, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open outbox: %w", err)
	}
	f.Close()
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open outbox: %w", err)
	}
	q := url.Values{}
	q.Set("_txlock", "immediate")
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(FULL)")
	// A forgotten token's bytes are zeroed, not left on a free page.
	q.Add("_pragma", "secure_delete(1)")
	db, err := sql.Open("sqlite", fileURI(abs, q))
	if err != nil {
		return nil, fmt.Errorf("open outbox %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	// A damaged page would otherwise surface later, as a session whose
	// token could not be kept or a write owed to the board that is lost.
	if err := quickCheck(db, path); err != nil {
		db.Close()
		return nil, err
	}
	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS outbox (
	seq     INTEGER PRIMARY KEY AUTOINCREMENT,
	entry   TEXT    NOT NULL,
	queued  TEXT    NOT NULL
)`); err != nil {
		db.Close()
		return nil, fmt.Errorf("open outbox %s: %w", path, err)
	}
	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS tokens (
	session TEXT PRIMARY KEY,
	token   TEXT NOT NULL,
	kept    TEXT NOT NULL
)`); err != nil {
		db.Close()
		return nil, fmt.Errorf("open outbox %s: %w", path, err)
	}
	if _, err := db.Exec(sourcesTable); err != nil {
		db.Close()
		return nil, fmt.Errorf("open outbox %s: %w", path, err)
	}
	if _, err := db.Exec(phoneTable); err != nil {
		db.Close()
		return nil, fmt.Errorf("open outbox %s: %w", path, err)
	}
	return &Box{db: db}, nil
}

var _ supervisor.TokenKeeper = (*Box)(nil)

// KeepToken stores a session's token on this machine (the shared board
// keeps only its hash). Tokens older than a week are dropped meanwhile:
// no session outlives its station that long.
func (b *Box) KeepToken(ctx context.Context, sessionID, token string) error {
	now := time.Now().UTC()
	if _, err := b.db.ExecContext(ctx, "DELETE FROM tokens WHERE kept < ?", now.Add(-7*24*time.Hour).Format(time.RFC3339Nano)); err != nil {
		return fmt.Errorf("keep session token: %w", err)
	}
	if _, err := b.db.ExecContext(ctx, "INSERT OR REPLACE INTO tokens (session, token, kept) VALUES (?, ?, ?)", sessionID, token, now.Format(time.RFC3339Nano)); err != nil {
		return fmt.Errorf("keep session token: %w", err)
	}
	return nil
}

// Token returns the token kept for sessionID.
func (b *Box) Token(ctx context.Context, sessionID string) (string, bool) {
	var tok string
	if err := b.db.QueryRowContext(ctx, "SELECT token FROM tokens WHERE session = ?", sessionID).Scan(&tok); err != nil {
		return "", false
	}
	return tok, true
}

// Add appends e; it is durable when Add returns nil.
func (b *Box) Add(ctx context.Context, e supervisor.OutboxEntry) (int64, error) {
	js, err := json.Marshal(e)
	if err != nil {
		return 0, fmt.Errorf("queue a write for the board: %w", err)
	}
	res, err := b.db.ExecContext(ctx, "INSERT INTO outbox (entry, queued) VALUES (?, ?)", string(js), time.Now().UTC().Format(time.RFC3339Nano))
	if err != nil {
		return 0, fmt.Errorf("queue a write for the board: %w", err)
	}
	return res.LastInsertId()
}

// List returns every queued entry, oldest first.
func (b *Box) List(ctx context.Context) ([]supervisor.OutboxEntry, error) {
	rows, err := b.db.QueryContext(ctx, "SELECT seq, entry FROM outbox ORDER BY seq")
	if err != nil {
		return nil, fmt.Errorf("read the outbox: %w", err)
	}
	defer rows.Close()
	var out []supervisor.OutboxEntry
	for rows.Next() {
		var (
			seq int64
			js  string
			e   supervisor.OutboxEntry
		)
		if err := rows.Scan(&seq, &js); err != nil {
			return nil, fmt.Errorf("read the outbox: %w", err)
		}
		if err := json.Unmarshal([]byte(js), &e); err != nil {
			return nil, fmt.Errorf("read the outbox: entry %d: %w", seq, err)
		}
		e.Seq = seq
		out = append(out, e)
	}
	return out, rows.Err()
}

// Remove drops entry seq, once the board has it (or refused it for good).
func (b *Box) Remove(ctx context.Context, seq int64) error {
	if _, err := b.db.ExecContext(ctx, "DELETE FROM outbox WHERE seq = ?", seq); err != nil {
		return fmt.Errorf("drop outbox entry %d: %w", seq, err)
	}
	return nil
}

// Close closes the file.
func (b *Box) Close() error { return b.db.Close() }

// ForgetToken drops the token kept for sessionID once its session ended,
// from the file and its WAL too: an ended session's token is no key for
// anyone who reads them later.
func (b *Box) ForgetToken(ctx context.Context, sessionID string) error {
	if _, err := b.db.ExecContext(ctx, "DELETE FROM tokens WHERE session = ?", sessionID); err != nil {
		return fmt.Errorf("forget session token: %w", err)
	}
	// The WAL still holds the page as it was before; a checkpoint that
	// truncates it leaves only the zeroed page (secure_delete).
	if _, err := b.db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		return fmt.Errorf("forget session token: %w", err)
	}
	return nil
}

// fileURI is the file: URI of the absolute path abs with the query q. A
// Windows drive path gets the empty authority (file:///C:/…): SQLite reads
// file://C:/… as a host named C: and refuses to open it.
func fileURI(abs string, q url.Values) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p, RawQuery: q.Encode()}).String()
}
