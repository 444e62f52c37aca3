package cli

import (
	"context"
	"io"
	"testing"
)

// A verb builds its own group's commands and not the whole tree (make
// bench: "CLI start"); help, completion and anything unsure build it all.
func TestOnlyTheInvokedGroupIsBuilt(t *testing.T) {
	for _, c := range []struct {
		args []string
		only string
	}{
		{[]string{"task", "ls"}, "task"},
		{[]string{"--home", "/h", "session", "ls"}, "session"},
		{[]string{"--home=/h", "status"}, "status"},
		{[]string{"--version"}, ""},
		{[]string{"help", "task"}, ""},
		{[]string{"completion", "bash"}, ""},
		{[]string{"__complete", "task", ""}, ""},
		{nil, ""},
	} {
		if got := onlyVerb(c.args); got != c.only {
			t.Errorf("onlyVerb(%q) = %q, want %q", c.args, got, c.only)
		}
	}
	subs := func(only, group string) int {
		e := &env{ctx: context.Background(), stdout: io.Discard, stderr: io.Discard, only: only}
		c, _, err := e.root().Find([]string{group})
		if err != nil || c.Name() != group {
			t.Fatalf("%s: %v", group, err)
		}
		return len(c.Commands())
	}
	for _, g := range []string{"task", "session", "project", "agent"} {
		if n := subs("", g); n < 3 {
			t.Errorf("the whole tree's %s has %d commands", g, n)
		}
		if n := subs(g, g); n != subs("", g) {
			t.Errorf("%s run alone has %d commands, the whole tree's %d", g, n, subs("", g))
		}
		if n := subs("status", g); n != 0 {
			t.Errorf("status built %s's %d commands", g, n)
		}
	}
}
