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
		v.conn = c
		v.epoch++
	}
	var n uint64
	if err := v.conn.QueryRowContext(ctx, "PRAGMA data_version").Scan(&n); err != nil {
		v.conn.Close()
		v.conn = nil
		return 0, fmt.Errorf("board generation: %w", err)
	}
	return v.epoch<<40 | n, nil
}

func (v *generation) close() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.conn != nil {
		v.conn.Close()
		v.conn = nil
	}
	if v.db != nil {
		v.db.Close()
	}
}

var _ supervisor.Generational = (*Store)(nil)
