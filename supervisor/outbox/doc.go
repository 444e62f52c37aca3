// Package outbox keeps, in a SQLite file in the station's home, the writes a
// station owes a shared board it cannot reach: a task's move, a session's
// end, a lease's release. They are kept in the order they were made and
// replayed in that order when the board answers again; each survives a
// kill -9 once Add returns. The same file keeps the write-backs owed to
// issue trackers (sources.go) and the notices owed to the phone's service
// (phone.go), each in a table of its own.
package outbox
