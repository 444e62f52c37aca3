package store

import "time"

// Times are stored as integer Unix milliseconds (UTC by definition), so
// they sort and compare as numbers and read back exactly as written: every
// time the store hands out has gone through fromMS(toMS(t)).

func toMS(t time.Time) int64 { return t.UnixMilli() }

func fromMS(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// stamp is the store's "now", at stored precision.
func (s *Store) stamp() int64 { return toMS(s.now()) }

// after returns now, or prev+1ms when the clock has not moved past prev (same
// millisecond, or a clock stepped back): a task's updated_at strictly
// increases with every change, so "changed since" is a simple comparison.
func after(now, prev int64) int64 { return max(now, prev+1) }
