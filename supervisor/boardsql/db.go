package boardsql

import (
	"context"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// Conn runs statements: a store's read handle, or one of its write
// transactions, adapted from its driver.
type Conn interface {
	Exec(ctx context.Context, query string, args ...any) error
	QueryRow(ctx context.Context, query string, args ...any) Row
	Query(ctx context.Context, query string, args ...any) (Rows, error)
}

// Row is what QueryRow returns. Its Scan fails with an error that is
// sql.ErrNoRows (errors.Is) when the query found no row: database/sql's
// own, or pgx's ErrNoRows, which wraps it.
type Row interface {
	Scan(dest ...any) error
}

// Rows are a query's rows, read in order.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close()
}

// Reader is what a read needs: where to read, and how the store's SQL
// reads times and notes back.
type Reader interface {
	Dialect
	// Read is the handle for reads that decide no write.
	Read() Conn
}

// DB is a store's database as the shared code drives it. Tx is the
// driver's transaction: the shared code hands it back to the store's own
// steps (a lease check, a notification) inside a shared write.
type DB[Tx any] interface {
	Reader
	// Write runs fn in one transaction and commits it, by the store's
	// rules (SQLite's group commit, PostgreSQL's retries): fn may run more
	// than once, so it only sets its results.
	Write(ctx context.Context, fn func(tx Tx) error) error
	// Conn is tx for the shared statements.
	Conn(tx Tx) Conn
	// Recorded is told of each history row the shared code writes in tx,
	// before tx commits: the shared board announces it to the other
	// stations.
	Recorded(ctx context.Context, tx Tx, n int64, tr supervisor.Transition) error
	// BoardNumber is the number the database keeps for the board, the same
	// for its life and for every station on it: what Board.BoardID writes.
	BoardNumber(ctx context.Context) (uint64, error)
}

// Dialect is what the two databases' SQL spells differently.
type Dialect interface {
	// Now is the SQL for the board's clock in a statement whose arguments
	// are args, and args with what that SQL binds: the SQLite store binds
	// its own (injected) clock, the shared board reads the server's, so
	// every station stamps by one clock.
	Now(args []any) (string, []any)
	// Clock reads the board's clock in tx, for a rule that runs in Go
	// (supervisor.Task.Apply).
	Clock(ctx context.Context, tx Conn) (time.Time, error)
	// Time is where Scan puts a stored time (of a NOT NULL column) for *t,
	// in whatever zone the driver reads it: the shared code hands it out
	// in UTC.
	Time(t *time.Time) any
	// TimeArg is t as a statement argument.
	TimeArg(t time.Time) any
	// Notes is where Scan puts a task's stored notes for *n.
	Notes(n *[]string) any
	// NotesArg is n as a statement argument; nil is stored as no notes,
	// never as NULL.
	NotesArg(n []string) (any, error)
	// ForUpdate is what a read that decides a write adds to lock its row:
	// " FOR UPDATE" where rows lock, "" where the write transaction holds
	// the whole database (SQLite's BEGIN IMMEDIATE).
	ForUpdate() string
	// Pins says the tasks table has pinned_to: the shared board pins a
	// task to the station that holds its only work.
	Pins() bool
	// Counts is the query of the board's tasks per state, as (state,
	// count) rows, states without tasks left out or counted 0.
	Counts() string
}
