package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/boardsql"
)

// shared answers the Board methods both SQL boards answer alike (see
// boardsql); Store embeds it on sqlBoard.
type shared = boardsql.Board[*sql.Tx]

// sqlBoard is the store as boardsql drives it.
type sqlBoard struct{ s *Store }

var _ boardsql.DB[*sql.Tx] = sqlBoard{}

func (b sqlBoard) Read() boardsql.Conn { return readConn(b) }

func (b sqlBoard) Write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return b.s.write(ctx, fn)
}

func (sqlBoard) Conn(tx *sql.Tx) boardsql.Conn { return conn{tx} }

// Recorded has nothing to do: no other station reads this board.
func (sqlBoard) Recorded(context.Context, *sql.Tx, int64, supervisor.Transition) error { return nil }

// Now binds the store's clock, which tests replace.
func (b sqlBoard) Now(args []any) (string, []any) {
	args = append(args, b.s.stamp())
	return "$" + strconv.Itoa(len(args)), args
}

func (b sqlBoard) Clock(context.Context, boardsql.Conn) (time.Time, error) { return b.s.now(), nil }

func (sqlBoard) Time(t *time.Time) any { return (*msTime)(t) }

func (sqlBoard) TimeArg(t time.Time) any { return toMS(t) }

func (sqlBoard) Notes(n *[]string) any { return (*jsonNotes)(n) }

func (sqlBoard) NotesArg(n []string) (any, error) {
	if n == nil {
		return "[]", nil
	}
	b, err := json.Marshal(n)
	return string(b), err
}

// ForUpdate locks nothing: a write transaction (BEGIN IMMEDIATE) holds the
// database's write lock from its start.
func (sqlBoard) ForUpdate() string { return "" }

func (sqlBoard) Pins() bool { return false }

// Counts reads the count per state that the tasks table's triggers keep
// (migration 6): a row per state, whatever the board's size.
func (sqlBoard) Counts() string { return "SELECT state, n FROM task_counts" }

// conn is a database/sql handle (the read pool or a write transaction) as
// boardsql runs statements on it. The driver binds $n to the nth argument.
type conn struct{ q handle }

// handle is *sql.DB or *sql.Tx.
type handle interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func (c conn) Exec(ctx context.Context, query string, args ...any) error {
	_, err := c.q.ExecContext(ctx, query, args...)
	return err
}

func (c conn) QueryRow(ctx context.Context, query string, args ...any) boardsql.Row {
	return c.q.QueryRowContext(ctx, query, args...)
}

func (c conn) Query(ctx context.Context, query string, args ...any) (boardsql.Rows, error) {
	rows, err := c.q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return sqlRows{rows}, nil
}

// sqlRows drops Close's error: what went wrong while reading, Err reports.
type sqlRows struct{ *sql.Rows }

func (r sqlRows) Close() { r.Rows.Close() }

// msTime scans a stored time: Unix milliseconds (see times.go).
type msTime time.Time

func (t *msTime) Scan(src any) error {
	ms, ok := src.(int64)
	if !ok {
		return fmt.Errorf("stored time %v is not Unix milliseconds", src)
	}
	*t = msTime(fromMS(ms))
	return nil
}

// jsonNotes scans a task's notes, stored as a JSON array of strings.
type jsonNotes []string

func (n *jsonNotes) Scan(src any) error {
	var b []byte
	switch v := src.(type) {
	case string:
		// Most tasks have no notes: skip the decoder for them (a board
		// listing reads every row).
		if v == "[]" {
			return nil
		}
		b = []byte(v)
	case []byte:
		b = v
	default:
		return fmt.Errorf("notes %v are not JSON text", src)
	}
	return json.Unmarshal(b, (*[]string)(n))
}
