// Package boardsql is what the two SQL boards do alike: the embedded SQLite
// store (supervisor/store, database/sql) and a team's shared PostgreSQL
// board (supervisor/pgstore, pgx). Their tables are the same, so the
// statements on them, the checks before them and the errors after them are
// written here once, and each store keeps only what its database does its
// own way: transactions and locking, leases and notifications, SQLite's
// busy handling, PostgreSQL's unreachable server.
//
// A store hands its database over as a DB: a handle to read through, a way
// to run a write transaction, and a Dialect for what its SQL spells
// differently (the clock, how times and notes are stored). Statements
// number their arguments $1, $2, …: PostgreSQL's placeholders, which the
// SQLite driver binds by the same numbers.
//
// The package may import the vocabulary (supervisor) and the standard
// library only; internal/checks/architecture checks that it reaches no driver.
package boardsql
