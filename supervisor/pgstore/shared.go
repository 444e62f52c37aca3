package pgstore

import (
	"context"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/boardsql"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// shared answers the Board methods both SQL boards answer alike (see
// boardsql); Store embeds it on pgBoard.
type shared = boardsql.Board[pgx.Tx]

// pgBoard is the store as boardsql drives it.
type pgBoard struct {
	dialect
	s *Store
}

var _ boardsql.DB[pgx.Tx] = pgBoard{}

// Read marks what says the server did not answer (reach): a read has no
// transaction of its own to do it.
func (b pgBoard) Read() boardsql.Conn { return conn{q: b.s.pool, mark: reach} }

func (b pgBoard) Write(ctx context.Context, fn func(tx pgx.Tx) error) error {
	return b.s.write(ctx, fn)
}

func (pgBoard) Conn(tx pgx.Tx) boardsql.Conn { return conn{q: tx} }

// Recorded announces the transition to listeners: the notification is sent
// when, and only if, tx commits.
func (b pgBoard) Recorded(ctx context.Context, tx pgx.Tx, n int64, tr supervisor.Transition) error {
	return notify(ctx, tx, Change{TaskID: supervisor.TaskID(n), From: tr.From, To: tr.To, Station: b.s.station, Actor: tr.Actor, At: tr.At})
}

// dialect is how this board's SQL differs from SQLite's: the server's
// clock, timestamptz times, notes in a text array, row locks and pins.
type dialect struct{}

func (dialect) Now(args []any) (string, []any) { return nowSQL, args }

func (dialect) Clock(ctx context.Context, tx boardsql.Conn) (time.Time, error) {
	var now time.Time
	err := tx.QueryRow(ctx, "SELECT "+nowSQL).Scan(&now)
	return now, err
}

func (dialect) Time(t *time.Time) any { return t }

func (dialect) TimeArg(t time.Time) any { return t }

func (dialect) Notes(n *[]string) any { return n }

func (dialect) NotesArg(n []string) (any, error) {
	if n == nil {
		return []string{}, nil // NOT NULL: a nil slice would be sent as NULL
	}
	return n, nil
}

func (dialect) ForUpdate() string { return " FOR UPDATE" }

func (dialect) Pins() bool { return true }

// conn is a pool or a transaction as boardsql runs statements on it; mark,
// when set, is applied to every error it returns.
type conn struct {
	q interface {
		Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
		Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
		QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	}
	mark func(error) error
}

func (c conn) marked(err error) error {
	if err == nil || c.mark == nil {
		return err
	}
	return c.mark(err)
}

func (c conn) Exec(ctx context.Context, query string, args ...any) error {
	_, err := c.q.Exec(ctx, query, args...)
	return c.marked(err)
}

func (c conn) QueryRow(ctx context.Context, query string, args ...any) boardsql.Row {
	return row{c.q.QueryRow(ctx, query, args...), c}
}

func (c conn) Query(ctx context.Context, query string, args ...any) (boardsql.Rows, error) {
	r, err := c.q.Query(ctx, query, args...)
	if err != nil {
		return nil, c.marked(err)
	}
	return rows{r, c}, nil
}

type row struct {
	r pgx.Row
	c conn
}

func (r row) Scan(dest ...any) error { return r.c.marked(r.r.Scan(dest...)) }

type rows struct {
	pgx.Rows
	c conn
}

func (r rows) Scan(dest ...any) error { return r.c.marked(r.Rows.Scan(dest...)) }

func (r rows) Err() error { return r.c.marked(r.Rows.Err()) }

// Counts sums the rows the tasks table's trigger adds (migration 9): a few
// per state, however many tasks the board holds.
func (dialect) Counts() string { return "SELECT state, n FROM task_counts_sum()" }
