package pgstore

import "time"

// nowSQL is the board's "now": the server's clock, so every station stamps
// and expires by one clock, at the millisecond precision the SQLite store
// keeps (times then read back exactly as they were handed out).
// clock_timestamp, not now(): a transaction that waited for a lock stamps
// when it acts, not when it began.
const nowSQL = "date_trunc('milliseconds', clock_timestamp())"

// toDB is a time a caller hands in, at stored precision; nil for the zero
// time, which is stored as NULL.
func toDB(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC().Truncate(time.Millisecond)
}

// fromDB is a stored time as the board hands it out: UTC, zero for NULL.
func fromDB(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}
