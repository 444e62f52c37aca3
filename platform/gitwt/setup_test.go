package gitwt

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// includeRepo is a repository like a Node project's: .env and node_modules
// ignored, a tracked .env.example, a .worktreeinclude committed.
func includeRepo(t *testing.T) string {
	t.Helper()
	repo := newRepo(t)
	commitFile(t, repo, ".gitignore", ".env*\n!.env.example\nnode_modules/\nsecret.key\n", "ignore")
	commitFile(t, repo, ".env.example", "KEY=example\n", "example env")
	commitFile(t, repo, IncludeFile, ".env*\nnode_modules/\nnotes.txt\n", "include")
	writeFile(t, repo, ".env", "KEY=real\n")
	writeFile(t, repo, ".env.local", "LOCAL=1\n")
	writeFile(t, repo, "node_modules/left-pad/index.js", "module.exports = 1\n")
	writeFile(t, repo, "secret.key", "not named by the include\n")
	writeFile(t, repo, "notes.txt", "untracked, not ignored: the person's own\n")
	writeFile(t, repo, ".env.example", "KEY=changed in the project, tracked\n")
	return repo
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// A new worktree gets what .worktreeinclude names and git ignores —
// folders whole — and nothing else: not a tracked file, not an untracked
// one git does not ignore, not an ignored one it does not name.
func TestWorktreeIncludeBringsWhatIsNamedAndIgnored(t *testing.T) {
	repo := includeRepo(t)
	m := New(nil, nil)
	ws, err := m.Prepare(context.Background(), project(repo, ""), "t1")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{".env": "KEY=real\n", ".env.local": "LOCAL=1\n", "node_modules/left-pad/index.js": "module.exports = 1\n",
		".env.example": "KEY=example\n"} {
		got, err := os.ReadFile(filepath.Join(ws.Dir, filepath.FromSlash(name)))
		if err != nil || string(got) != want {
			t.Errorf("%s in the worktree: %q, %v; want %q", name, got, err, want)
		}
	}
	for _, name := range []string{"secret.key", "notes.txt"} {
		if exists(filepath.Join(ws.Dir, name)) {
			t.Errorf("%s was brought into the worktree", name)
		}
	}
}

// The setup runs after the copy, in the new worktree, with what it
// brought; it is recorded, runs once, and task work says how long it took.
func TestSetupRunsOnceInANewWorktreeAfterTheCopy(t *testing.T) {
	repo := includeRepo(t)
	p := project(repo, "")
	p.Setup = "test -f .env && echo installed > node_modules/.made && echo setting up"
	m := New(nil, nil)
	ws, err := m.Prepare(context.Background(), p, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if !exists(filepath.Join(ws.Dir, "node_modules", ".made")) {
		t.Fatal("the setup did not run in the worktree, or ran before .env came")
	}
	if exists(filepath.Join(repo, "node_modules", ".made")) {
		t.Error("the setup ran in the project's folder")
	}
	if ws.Setup == nil || !ws.Setup.OK || ws.Setup.Command != p.Setup || !strings.Contains(ws.Setup.Output, "setting up") {
		t.Fatalf("workspace setup: %+v", ws.Setup)
	}
	if !strings.Contains(ws.Setup.Log(), "setup `"+p.Setup+"`: ok after") {
		t.Errorf("log header: %q", ws.Setup.Log())
	}
	again, err := m.Prepare(context.Background(), p, "t1")
	if err != nil || again.Setup != nil {
		t.Errorf("a second Prepare: %+v, %v; want no setup again", again.Setup, err)
	}
	run(t, ws.Dir, "commit", "-q", "--allow-empty", "-m", "work")
	w, ok, err := m.Work(context.Background(), p, "t1")
	if err != nil || !ok || w.Setup == nil || !w.Setup.OK || w.Setup.At.IsZero() {
		t.Errorf("work's setup: %+v %v %v", w.Setup, ok, err)
	}
	// Said after the worktree is gone too (a done task's).
	if err := m.Remove(context.Background(), p, "t1"); err != nil {
		t.Fatal(err)
	}
	if w, ok, err := m.Work(context.Background(), p, "t1"); err != nil || !ok || w.Setup == nil || w.Setup.Command != p.Setup {
		t.Errorf("work's setup after the worktree was removed: %+v %v %v", w.Setup, ok, err)
	}
}

// A setup that fails is the setup's fault, said so with its last lines;
// once fixed, the next Prepare of the same worktree runs it again.
func TestFailedSetupSaysSoAndRunsAgainOnceFixed(t *testing.T) {
	repo := includeRepo(t)
	p := project(repo, "")
	p.Setup = "echo resolving; echo 'npm ERR! missing lockfile' >&2; exit 3"
	m := New(nil, nil)
	_, err := m.Prepare(context.Background(), p, "t1")
	var se *supervisor.SetupError
	if !errors.As(err, &se) {
		t.Fatalf("Prepare: %v; want a SetupError", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "setup failed, not the agent") || !strings.Contains(msg, "npm ERR! missing lockfile") || !strings.Contains(msg, "status 3") {
		t.Errorf("message: %s", msg)
	}
	p.Setup = "echo fixed"
	ws, err := m.Prepare(context.Background(), p, "t1")
	if err != nil || ws.Setup == nil || !ws.Setup.OK {
		t.Fatalf("after the fix: %+v %v", ws.Setup, err)
	}
}

// A setup still running at setup_timeout has failed, and says it timed out.
func TestSetupTimesOut(t *testing.T) {
	repo := newRepo(t)
	p := project(repo, "")
	p.Setup, p.SetupTimeout = "echo started; sleep 30", time.Second
	_, err := New(nil, nil).Prepare(context.Background(), p, "t1")
	var se *supervisor.SetupError
	if !errors.As(err, &se) || !se.Run.TimedOut || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("Prepare: %v", err)
	}
}

// The gate's checkout is readied like a worktree: with .env and what the
// setup makes, a gate that needs both passes, its log headed by the
// setup's; a failing setup is a failed
// gate saying so, not kept as the commit's verdict.
func TestGateCheckoutGetsIncludeAndSetup(t *testing.T) {
	repo := includeRepo(t)
	p := project(repo, "grep -q KEY=real .env && test -f node_modules/.made")
	p.Setup = "echo installed > node_modules/.made"
	cache := newCache()
	m := New(cache, nil)
	if _, err := m.Prepare(context.Background(), p, "t1"); err != nil {
		t.Fatal(err)
	}
	v, ran, err := m.HeadGate(context.Background(), p, "t1", true)
	if err != nil || !ran || !v.Passed {
		t.Fatalf("gate with include and setup: %+v %v %v", v, ran, err)
	}
	if !strings.Contains(v.Tail, "── buildstation: .worktreeinclude: ") || !strings.Contains(v.Tail, "setup `echo installed > node_modules/.made`: ok after") ||
		!strings.Contains(v.Tail, "── buildstation: gate `") {
		t.Errorf("the gate's log does not start with the setup under its header:\n%s", v.Tail)
	}

	p.Setup = "echo cannot reach the registry; exit 1"
	commitFile(t, m.worktreeDir(p, "t1"), "b", "b\n", "second")
	v, ran, err = m.HeadGate(context.Background(), p, "t1", true)
	if err != nil || !ran || v.Passed || !strings.Contains(v.Tail, "setup failed, not the agent") || !strings.Contains(v.Tail, "cannot reach the registry") {
		t.Fatalf("gate whose setup fails: %+v %v %v", v, ran, err)
	}
	if cache.saves != 1 {
		t.Errorf("the cache has %d verdicts; a setup's failure is not the commit's", cache.saves)
	}
}

// A gate that fails naming an ignored .env file the project's folder has
// but its checkout lacks (no .worktreeinclude brings it) says which: the
// verdict is the checkout's, not the commit's, so it is not cached. A gate
// that passes without it, or fails without naming it, is an ordinary
// verdict: a healthy project that needs no such file is never told.
func TestGateNamesTheIgnoredFileItsCheckoutLacks(t *testing.T) {
	repo := newRepo(t)
	commitFile(t, repo, ".gitignore", ".env*\n", "ignore")
	writeFile(t, repo, ".env", "TOKEN=ok\n")
	writeFile(t, repo, ".env.local", "LOCAL=1\n")
	cache := newCache()
	m := New(cache, nil)
	p := project(repo, "grep -q TOKEN=ok .env || { echo 'FAIL: .env is missing'; exit 1; }")
	if _, err := m.Prepare(context.Background(), p, "t1"); err != nil {
		t.Fatal(err)
	}
	v, ran, err := m.HeadGate(context.Background(), p, "t1", true)
	if err != nil || !ran || v.Passed {
		t.Fatalf("gate: %+v %v %v", v, ran, err)
	}
	if !slices.Equal(v.Missing, []string{".env"}) {
		t.Errorf("missing %q, want [.env] (.env.local is not named)", v.Missing)
	}
	if cache.saves != 0 {
		t.Error("a failure for a file the checkout lacks was cached as the commit's verdict")
	}

	for _, gate := range []string{"true", "echo 'FAIL: 2 tests'; echo 'see config.env'; exit 1"} {
		p.Gate = gate
		commitFile(t, m.worktreeDir(p, "t1"), "f", gate+"\n", "another")
		v, _, err := m.HeadGate(context.Background(), p, "t1", true)
		if err != nil || len(v.Missing) > 0 {
			t.Errorf("gate %q: %+v %v; want no missing file", gate, v, err)
		}
	}

	writeFile(t, repo, IncludeFile, ".env\n")
	p.Gate = "grep -q TOKEN=ok .env || { echo 'FAIL: .env is missing'; exit 1; }"
	commitFile(t, m.worktreeDir(p, "t1"), "f", "last\n", "last")
	v, _, err = m.HeadGate(context.Background(), p, "t1", true)
	if err != nil || !v.Passed || len(v.Missing) > 0 {
		t.Errorf("with .worktreeinclude: %+v %v", v, err)
	}
}
