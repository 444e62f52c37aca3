package store

import (
	"context"
	"database/sql"
	"sync"

	"github.com/buildstation/buildstation/supervisor/boardsql"
)

// The read pool's statements are prepared once per connection and kept:
// SQLite's parser and planner were a sixth of a listing's cost, and their
// allocations go through the driver's one allocator lock, which is what
// kept two readers from using two cores (measured: 1.3× one reader's
// pages/s with two). A query's text is its shape (filters are arguments),
// so a board has a few dozen at most; past maxStmts a query runs unkept.
const maxStmts = 64

type stmts struct {
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

// get is the read pool's statement of query, prepared at its first use;
// nil when too many are kept already or it cannot be prepared (the query
// then runs unprepared and says what is wrong).
func (c *stmts) get(ctx context.Context, rd *sql.DB, query string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.m[query]; ok {
		return st
	}
	if len(c.m) >= maxStmts {
		return nil
	}
	st, err := rd.PrepareContext(ctx, query)
	if err != nil {
		return nil
	}
	if c.m == nil {
		c.m = map[string]*sql.Stmt{}
	}
	c.m[query] = st
	return st
}

func (c *stmts) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, st := range c.m {
		st.Close()
	}
	c.m = nil
}

// readConn is the read pool as boardsql runs statements on it, each
// prepared once (stmts).
type readConn struct{ s *Store }

func (r readConn) Exec(ctx context.Context, query string, args ...any) error {
	return conn{r.s.rd}.Exec(ctx, query, args...)
}

func (r readConn) QueryRow(ctx context.Context, query string, args ...any) boardsql.Row {
	if st := r.s.stmts.get(ctx, r.s.rd, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return conn{r.s.rd}.QueryRow(ctx, query, args...)
}

func (r readConn) Query(ctx context.Context, query string, args ...any) (boardsql.Rows, error) {
	st := r.s.stmts.get(ctx, r.s.rd, query)
	if st == nil {
		return conn{r.s.rd}.Query(ctx, query, args...)
	}
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return nil, err
	}
	return sqlRows{rows}, nil
}
