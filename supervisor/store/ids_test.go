package store

import "testing"

func TestTaskIDs(t *testing.T) {
	for _, c := range []struct {
		id string
		n  int64
		ok bool
	}{
		{"t1", 1, true},
		{"t42", 42, true},
		{"t0", 0, false},
		{"t01", 0, false},
		{"t+1", 0, false},
		{"t-1", 0, false},
		{"T1", 0, false},
		{"1", 0, false},
		{"t", 0, false},
		{"", 0, false},
		{"t99999999999999999999", 0, false},
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
