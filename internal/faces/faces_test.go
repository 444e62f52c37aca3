package faces

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCLINamesTheFrontBesideTheApp: the app installed as buildstation-app
// names the front beside it as the command line; a build of the module
// alone (named buildstation, or with no front beside it) names itself.
func TestCLINamesTheFrontBesideTheApp(t *testing.T) {
	dir := t.TempDir()
	app, front := filepath.Join(dir, exe(App)), filepath.Join(dir, exe(Front))
	if err := os.WriteFile(app, []byte("app"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := CLI(app); got != app {
		t.Errorf("no front beside: CLI(%s) = %s, want the app itself", app, got)
	}
	if err := os.WriteFile(front, []byte("front"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := CLI(app); got != front {
		t.Errorf("front beside: CLI(%s) = %s, want %s", app, got, front)
	}
	alone := filepath.Join(t.TempDir(), exe(Front))
	if got := CLI(alone); got != alone {
		t.Errorf("a whole build named buildstation: CLI = %s, want itself", got)
	}
	if got := CLI(""); got != "" {
		t.Errorf(`CLI("") = %q`, got)
	}
}

func TestSplitArgs(t *testing.T) {
	for _, c := range []struct {
		args       []string
		home, verb string
		rest       int
	}{
		{nil, "", "", 0},
		{[]string{"--home", "/h", "daemon", "-x"}, "/h", "daemon", 1},
		{[]string{"--home=/h", "task", "ls"}, "/h", "task", 1},
		{[]string{"-home=/h"}, "/h", "", 0},
		{[]string{"status"}, "", "status", 0},
	} {
		home, verb, rest := SplitArgs(c.args)
		if home != c.home || verb != c.verb || len(rest) != c.rest {
			t.Errorf("SplitArgs(%q) = %q, %q, %q", c.args, home, verb, rest)
		}
	}
}
