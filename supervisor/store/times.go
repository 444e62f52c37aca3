package store

import "time"

// Times are stored as integer Unix milliseconds (UTC by definition), so
// they sort and compare as numbers and read back exactly as written: every
// time the store hands out has gone through fromMS(toMS(t)).

func toMS(t time.Time) int64 { return t.UnixMilli() }

func fromMS(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// stamp is the store's "now", at stored precision. (A task's updated_at
// moves on by supervisor.Task.Apply's rule.)
func (s *Store) stamp() int64 { return toMS(s.now()) }
