//go:build linux

package station_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

// A new user's first run, with no hand-written config: from an empty home,
// `project add` writes config.toml (the commented defaults, then the
// project), refuses bad input in one sentence, the station runs the added
// project at once, and a task lands. With a station running, `project add`
// goes through it and applies with no restart; `project rm` takes a
// project out.
func TestFromAnEmptyHomeThroughProjectAddToALandedTask(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	userHome := t.TempDir() // no ~/.claude.json: Claude Code never ran here
	tools := t.TempDir()    // a stand-in claude on PATH
	writeFile(t, filepath.Join(tools, "claude"), "#!/bin/sh\necho '2.1.328 (Claude Code)'\n")
	os.Chmod(filepath.Join(tools, "claude"), 0o755)
	env := rig.Env(rig.Bin(), home, "HOME="+userHome, "PATH="+filepath.Dir(rig.Bin())+":"+tools+":/usr/bin:/bin")
	run := func(args ...string) (string, string, int) {
		out, errOut, code, err := rig.CLI(rig.Bin(), env, args...)
		if err != nil {
			t.Fatal(err)
		}
		return out, errOut, code
	}
	web := rig.GitRepo(t)
	// No station yet: config.toml is made and edited directly.
	out, errOut, code := run("project", "add", web, "--name", "web", "--command", "buildstation", "fake-agent")
	if code != 0 || !strings.Contains(out, "added project web") {
		t.Fatalf("project add with no station: exit %d\n%s%s", code, out, errOut)
	}
	cfg := readFile(t, filepath.Join(home, "config.toml"))
	if !strings.HasPrefix(cfg, "# Build Station configuration.") || !strings.Contains(cfg, "[[projects]]\nname = \"web\"\npath = \""+web+"\"\ncommand = [\"buildstation\", \"fake-agent\"]\n") {
		t.Fatalf("config.toml:\n%s", cfg)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"project", "add", filepath.Join(web, "nope")}, "does not exist; create the folder first"},
		{[]string{"project", "add", t.TempDir(), "--name", "web"}, `a project named "web" already exists`},
		{[]string{"project", "add", t.TempDir(), "--agent", "codex"}, `"codex" is not installed here`},
	} {
		_, errOut, code := run(tt.args...)
		if code != 1 || !strings.Contains(errOut, tt.want) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q; want one line with %q", tt.args, code, errOut, tt.want)
		}
	}
	if readFile(t, filepath.Join(home, "config.toml")) != cfg {
		t.Fatal("a refused add changed config.toml")
	}

	s := rig.Start(t, rig.Bin(), home, env)
	id := s.AddTask("web", "first task", "print hello; complete landed from an added project")
	if got := s.WaitState(id, "done", 60*time.Second); got.Summary != "landed from an added project" {
		t.Fatalf("task %+v", got)
	}

	// With the station running: added through it, live at once.
	api := t.TempDir()
	out = s.Must("project", "add", api, "--name", "api", "--agent", "claude")
	if !strings.Contains(out, "before its first task: Claude Code has not been set up on this machine yet") {
		t.Errorf("the claude step is not said:\n%s", out)
	}
	writeFile(t, filepath.Join(userHome, ".claude.json"), `{"hasCompletedOnboarding": true, "projects": {}}`)
	other := t.TempDir()
	out = s.Must("project", "add", other, "--agent", "claude")
	if !strings.Contains(out, "Claude Code does not trust "+other+" yet") || !strings.Contains(out, "run claude once in that folder") {
		t.Errorf("the trust step is not said:\n%s", out)
	}
	var projects []struct{ Name, Agent string }
	s.MustJSON(&projects, "project", "ls", "--json")
	if len(projects) != 3 || projects[1].Name != "api" || projects[1].Agent != "claude" {
		t.Fatalf("projects after add: %+v", projects)
	}
	_, errOut, code = s.Run("project", "add", t.TempDir(), "--name", "api")
	if code != 1 || !strings.Contains(errOut, `a project named "api" already exists`) {
		t.Errorf("duplicate through the station: exit %d %q", code, errOut)
	}
	s.Must("project", "rm", "api")
	s.MustJSON(&projects, "project", "ls", "--json")
	if len(projects) != 2 || projects[1].Name == "api" {
		t.Fatalf("projects after rm: %+v", projects)
	}
	if strings.Contains(readFile(t, filepath.Join(home, "config.toml")), `name = "api"`) {
		t.Fatal("rm left the table in config.toml")
	}
}
