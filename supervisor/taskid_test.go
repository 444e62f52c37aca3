package supervisor

import "testing"

func TestTaskIDs(t *testing.T) {
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
		{"t+1", 0, false},
		{"t-1", 0, false},
		{"T1", 0, false},
		{"x1", 0, false},
		{"1", 0, false},
		{"t", 0, false},
		{"", 0, false},
		{"t9223372036854775808", 0, false},
		{"t99999999999999999999", 0, false},
	} {
		n, ok := ParseTaskID(c.id)
		if n != c.n || ok != c.ok {
			t.Errorf("ParseTaskID(%q) = %d, %v; want %d, %v", c.id, n, ok, c.n, c.ok)
		}
		if ok && TaskID(n) != c.id {
			t.Errorf("TaskID(%d) = %q, want %q", n, TaskID(n), c.id)
		}
	}
}
