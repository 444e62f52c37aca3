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

// envRepo is a real repository whose .env is ignored and whose gate
// (make test) needs both the .env and what the setup makes (vendor/ready,
// also ignored); with include, its .worktreeinclude names the .env.
func envRepo(t *testing.T, include bool) string {
	t.Helper()
	repo := rig.GitRepo(t)
	writeFile(t, filepath.Join(repo, ".gitignore"), ".env\nvendor/\n")
	writeFile(t, filepath.Join(repo, "Makefile"), "test:\n"+
		"\t@grep -q TOKEN=ok .env || { echo 'FAIL: .env is missing'; exit 1; }\n"+
		"\t@test -f vendor/ready || { echo 'FAIL: vendor/ready is missing: run the setup'; exit 1; }\n")
	files := []string{".gitignore", "Makefile"}
	if include {
		writeFile(t, filepath.Join(repo, ".worktreeinclude"), ".env\n")
		files = append(files, ".worktreeinclude")
	}
	rig.Git(t, repo, append([]string{"add"}, files...)...)
	rig.Git(t, repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "a gate that needs .env and the setup")
	writeFile(t, filepath.Join(repo, ".env"), "TOKEN=ok\n")
	return repo
}

const setupOK = `setup = "mkdir -p vendor && echo ok > vendor/ready && echo installed 3 packages"`

// With .worktreeinclude and setup, the task's worktree and every gate
// checkout have the .env and what the setup made: the task lands on a
// green gate; the transcript starts with the setup under its header and
// task show says how long it took. With a failing setup, the task blocks
// naming the setup, not the agent; without .worktreeinclude and setup,
// its gate fails for the missing .env and the task blocks naming it. A
// setup longer than its project's idle window is not the agent's silence,
// and status warns of it.
func TestWorktreeIncludeAndSetupReadyTheTaskAndTheGate(t *testing.T) {
	t.Parallel()
	ready := envRepo(t, true)
	broken := envRepo(t, true)
	noInclude := envRepo(t, false)
	slow := envRepo(t, true)
	s := rig.StartOn(t, rig.WriteConfig(t,
		rig.ProjectTOML("web", ready, "60s", "60s", `gate = "make test"`, setupOK)+
			rig.ProjectTOML("broken", broken, "60s", "60s", `gate = "make test"`, `setup = "echo 'npm ERR! registry unreachable'; exit 1"`)+
			rig.ProjectTOML("bare", noInclude, "60s", "60s", `gate = "make test"`)+
			rig.ProjectTOML("slow", slow, "2s", "60s", `setup = "sleep 3"`)))

	id := s.AddTask("web", "work", "commit work; complete landed with its setup")
	if got := s.WaitState(id, "done", 90*time.Second); got.Summary != "landed with its setup" {
		t.Fatalf("task %+v", got)
	}
	log := s.Transcript(id, 1)
	head := strings.Index(log, "── buildstation: .worktreeinclude: 1 entry")
	if head < 0 || !strings.Contains(log, "setup `mkdir -p vendor") || !strings.Contains(log, "installed 3 packages") {
		t.Errorf("the transcript does not show the setup under its header:\n%s", rig.Tail(log, 20))
	}
	if out := s.Must("task", "show", id); !strings.Contains(out, "setup:    `mkdir -p vendor && echo ok > vendor/ready && echo installed 3 packages` ok in") {
		t.Errorf("task show does not say how long setup took:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(ready, "vendor")); err == nil {
		t.Error("the setup ran in the project's own folder")
	}

	id = s.AddTask("broken", "work", "commit work; complete should not get here")
	got := s.WaitState(id, "blocked", 60*time.Second)
	if !strings.Contains(got.Reason, "setup failed, not the agent") || !strings.Contains(got.Reason, "npm ERR! registry unreachable") {
		t.Errorf("blocked for %q; want the setup named, with its last lines", got.Reason)
	}

	id = s.AddTask("bare", "work", "commit work; complete first try; sleep 60s")
	got = s.WaitState(id, "blocked", 60*time.Second)
	if !strings.Contains(got.Reason, "add .env to the project's .worktreeinclude") || !strings.Contains(got.Reason, "FAIL: .env is missing") {
		t.Errorf("without .worktreeinclude blocked for %q; want the missing .env named, and how to bring it", got.Reason)
	}

	// A 3s setup before a 2s idle window: the task still lands, and
	// status warns.
	id = s.AddTask("slow", "work", "commit work; complete landed after a slow setup")
	if got := s.WaitState(id, "done", 60*time.Second); got.Summary != "landed after a slow setup" {
		t.Fatalf("after a setup longer than the idle window: task %+v", got)
	}
	if out := s.Must("status"); !strings.Contains(out, "project slow: its setup (`sleep 3`) took 3s, longer than its idle window (2s)") {
		t.Errorf("status does not warn of the slow setup:\n%s", out)
	}
}

// project add reads an npm and a uv project's files and suggests their
// setup, a .worktreeinclude for the ignored .env and (a Makefile with a
// test target) the gate; a dry run prints them
// and writes nothing, --accept-suggestions writes them.
func TestProjectAddSuggestsSetup(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	env := rig.Env(rig.Bin(), home, "PATH="+filepath.Dir(rig.Bin())+":/usr/bin:/bin")
	run := func(args ...string) string {
		out, errOut, code, err := rig.CLI(rig.Bin(), env, args...)
		if err != nil || code != 0 {
			t.Fatalf("%v: exit %d %v\n%s%s", args, code, err, out, errOut)
		}
		return out
	}
	npm := envRepo(t, false)
	writeFile(t, filepath.Join(npm, "package-lock.json"), "{}\n")
	uv := rig.GitRepo(t)
	writeFile(t, filepath.Join(uv, "uv.lock"), "version = 1\n")

	out := run("project", "add", npm, "--name", "web", "--dry-run", "--command", "buildstation", "fake-agent")
	if !strings.Contains(out, "suggested setup: npm ci (from package-lock.json)") || !strings.Contains(out, "suggested .worktreeinclude: .env*") || !strings.Contains(out, "nothing written") ||
		!strings.Contains(out, "suggested gate: make test (from Makefile)") {
		t.Errorf("dry run:\n%s", out)
	}
	if cfg, _ := os.ReadFile(filepath.Join(home, "config.toml")); strings.Contains(string(cfg), "\nname = \"web\"") {
		t.Fatalf("a dry run wrote config.toml:\n%s", cfg)
	}
	if _, err := os.Stat(filepath.Join(npm, ".worktreeinclude")); err == nil {
		t.Fatal("a dry run wrote .worktreeinclude")
	}
	out = run("project", "add", uv, "--name", "api", "--command", "buildstation", "fake-agent")
	if !strings.Contains(out, "suggested setup: uv sync (from uv.lock); not written") {
		t.Errorf("uv project:\n%s", out)
	}
	out = run("project", "add", npm, "--name", "web", "--accept-suggestions", "--command", "buildstation", "fake-agent")
	cfg := readFile(t, filepath.Join(home, "config.toml"))
	if !strings.Contains(cfg, "name = \"web\"\npath = \""+npm+"\"\ncommand = [\"buildstation\", \"fake-agent\"]\nsetup = \"npm ci\"\n") {
		t.Errorf("accepted: config.toml:\n%s\nout:\n%s", cfg, out)
	}
	if !strings.Contains(cfg, "setup = \"npm ci\"\ngate = \"make test\"\n") {
		t.Errorf("the suggested gate was not written with the rest: config.toml:\n%s", cfg)
	}
	if strings.Contains(cfg, "setup = \"uv sync\"") {
		t.Error("a suggestion not accepted was written")
	}
	if inc := readFile(t, filepath.Join(npm, ".worktreeinclude")); !strings.Contains(inc, "\n.env*\n") {
		t.Errorf(".worktreeinclude:\n%s", inc)
	}
}
