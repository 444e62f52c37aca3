// Package pgstore keeps a team's shared board in PostgreSQL, behind the same
// supervisor.Board the embedded SQLite store (supervisor/store) implements,
// so several stations on several machines can work one queue. The config
// line `board = "postgres://user@host/db"` selects it.
//
// What a shared board adds to the embedded one:
//
//   - The schema migrates itself at Open under a transaction-scoped
//     advisory lock, so stations started at the same moment apply each step
//     once between them.
//   - Leases: a station claims a task with ClaimLeased, which also takes a
//     project slot for a limited time; it keeps its claims alive with Renew
//     and gives them back with Release or by moving the task out of
//     working and review. Reap blocks the tasks of a station that stopped
//     renewing, so a dead machine's work is not silently lost, and a
//     station whose lease was reaped or taken cannot overwrite the new
//     owner's transitions (its Move fails with a conflict).
//   - Change notifications: every committed transition, and every change
//     of a session's state, is announced with pg_notify in the same
//     transaction; Listen delivers them to the other stations, which
//     republish them to their trays and event streams.
//   - Every station's sessions: a station records its sessions' states
//     (on a change of state, never per byte of output) and OtherSessions
//     lists the other stations' live ones.
//
// Times are the database server's clock (one clock for every station) kept
// to the millisecond, like the SQLite store, so both boards hand out the
// same values. Each station's session records are its own: they are keyed
// by station and session id.
package pgstore
