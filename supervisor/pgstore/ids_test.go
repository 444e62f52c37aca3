package pgstore

import "testing"

// Runs without a database, like every test of pure helpers here.
func TestParseTaskID(t *testing.T) {
	for _, c := range []struct {
		id string
		n  int64
		ok bool
	}{
		{"t1", 1, true},
		{"t42", 42, true},
		{"t9223372036854775807", 9223372036854775807, true},
		{"t0", 0, false},
		{"t01", 0, false},
		{"t-1", 0, false},
		{"t+1", 0, false},
		{"1", 0, false},
		{"x1", 0, false},
		{"t", 0, false},
		{"", 0, false},
		{"t9223372036854775808", 0, false},
	} {
		n, ok := parseTaskID(c.id)
		if n != c.n || ok != c.ok {
			t.Errorf("parseTaskID(%q) = %d, %v; want %d, %v", c.id, n, ok, c.n, c.ok)
		}
		if ok && taskID(n) != c.id {
			t.Errorf("taskID(%d) = %q, want %q", n, taskID(n), c.id)
		}
	}
}
