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

// TestCLIOnWindows: the MSI installs buildstation.exe (the front),
// buildstation-app.exe and buildstationw.exe (the app's console and GUI
// faces) side by side. A station started from either face of the app
// names the front; an install of the releases before the front
// (buildstation.exe and buildstationw.exe, both the whole program) names
// the console buildstation.exe from the GUI face; a lone exe names itself.
func TestCLIOnWindows(t *testing.T) {
	dir := t.TempDir()
	put := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(name), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	app, gui := put("buildstation-app.exe"), put("buildstationw.exe")
	for _, self := range []string{app, gui} {
		if got := cliFor("windows", self); got != self {
			t.Errorf("no front beside: CLI(%s) = %s, want itself", self, got)
		}
	}
	front := put("buildstation.exe")
	for _, self := range []string{app, gui, filepath.Join(dir, "BuildStationW.EXE")} {
		if got := cliFor("windows", self); got != front {
			t.Errorf("front beside: CLI(%s) = %s, want %s", self, got, front)
		}
	}
	if got := cliFor("windows", front); got != front {
		t.Errorf("CLI(the front) = %s", got)
	}
	// Off Windows a file named buildstationw is no face of anything.
	if got := cliFor("linux", filepath.Join(dir, "buildstationw")); got != filepath.Join(dir, "buildstationw") {
		t.Errorf("linux: CLI(buildstationw) = %s, want itself", got)
	}
	other := filepath.Join(t.TempDir(), "tool.exe")
	if got := cliFor("windows", other); got != other {
		t.Errorf("CLI(%s) = %s, want itself", other, got)
	}
}
