package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"

	"github.com/buildstation/buildstation/supervisor"
)

// generation watches the board file for commits: SQLite's data_version, read
// on a connection of its own that never writes, changes whenever any other
// connection (the station's writer, or another process) commits. A new
// connection starts its own count, so a reconnect moves to a new epoch and
// no two states of the board ever share a version.
type generation struct {
	mu    sync.Mutex
	db    *sql.DB
	conn  *sql.Conn
	read  *sql.Stmt // PRAGMA data_version on conn, prepared once: every listing asks
	epoch uint64
}

// Generation is a number that changes whenever the board's content may have:
// an answer computed after reading version v is still the board's answer
// while Generation returns v. Read it before the query whose answer it
// labels, so a commit between the two only makes the label older.
func (s *Store) Generation(ctx context.Context) (uint64, error) {
	v := &s.generation
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.conn == nil {
		c, err := v.db.Conn(ctx)
		if err != nil {
			return 0, fmt.Errorf("board generation: %w", err)
		}
		st, err := c.PrepareContext(ctx, "PRAGMA data_version")
		if err != nil {
			c.Close()
			return 0, fmt.Errorf("board generation: %w", err)
		}
		v.conn, v.read = c, st
		v.epoch++
	}
	var n uint64
	if err := v.read.QueryRowContext(ctx).Scan(&n); err != nil {
		v.drop()
		return 0, fmt.Errorf("board generation: %w", err)
	}
	return v.epoch<<40 | n, nil
}

// drop lets go of the connection; the next read opens another.
func (v *generation) drop() {
	if v.conn != nil {
		v.read.Close()
		v.conn.Close()
		v.conn, v.read = nil, nil
	}
}

func (v *generation) close() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.drop()
	if v.db != nil {
		v.db.Close()
	}
}

var _ supervisor.Generational = (*Store)(nil)
