package cli_test

import (
	"strings"
	"testing"
)

// A mistyped command or flag is answered with what was meant, and the
// list offered names every command there is, logs included.
func TestMistakesGetSuggestions(t *testing.T) {
	h := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tsak"}, `unknown command "tsak"; did you mean "task"?`},
		{[]string{"frobnicate"}, "logs"},
		{[]string{"task", "shwo"}, `unknown command "task shwo"; did you mean "task show"?`},
		{[]string{"--home", h, "task", "ls", "--stat"}, `task ls: flag provided but not defined: -stat; did you mean --state? see "buildstation task ls -h"`},
		{[]string{"--home", h, "task", "diff", "t1", "--stats"}, "did you mean --stat?"},
	} {
		r := run(t, "", tc.args...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
}

// Every flag a command takes is in its help: service --dry-run too.
func TestServiceHelpNamesDryRun(t *testing.T) {
	r := run(t, "", "service", "--help")
	if r.code != 0 || !strings.Contains(r.stdout, "--dry-run") {
		t.Errorf("service --help (exit %d) does not name --dry-run:\n%s", r.code, r.stdout)
	}
}

// project set confirms what it changed, not the windows it did not touch.
func TestProjectSetConfirmsTheChange(t *testing.T) {
	s := startBoard(t)
	out := s.ok(t, "project", "set", "web", "agent=codex")
	if !strings.HasPrefix(out, "web: agent = codex") || strings.Contains(out, "idle") {
		t.Errorf("project set agent=codex printed %q", out)
	}
	out = s.ok(t, "project", "set", "web", "gate=")
	if out != "web: gate removed (the default applies)\n" {
		t.Errorf("project set gate= printed %q", out)
	}
}
