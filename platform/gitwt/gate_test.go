//go:build !windows

package gitwt

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestHeadGatePassFailAndCache(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	repo := newRepo(t)
	gate, runs := countingGate(t, "echo checking; test -f ok.txt")
	cache := newCache()
	m := New(cache, nil)
	p := project(repo, gate)
	ws := prepare(t, m, p, "t1")

	v, ran, err := m.HeadGate(ctx, p, "t1", true)
	if err != nil || !ran {
		t.Fatalf("HeadGate: ran %v, err %v", ran, err)
	}
	if v.Passed || v.SHA != rev(t, ws.Dir, "rev-parse", "HEAD") || !strings.Contains(v.Tail, "checking") {
		t.Errorf("HeadGate without ok.txt = %+v, want a failure at HEAD with its output", v)
	}

	pass := commitFile(t, ws.Dir, "ok.txt", "ok\n", "add ok")
	for range 2 {
		v, ran, err = m.HeadGate(ctx, p, "t1", true)
		if err != nil || !ran || !v.Passed || v.SHA != pass {
			t.Fatalf("HeadGate with ok.txt = %+v, ran %v, err %v; want pass at %s", v, ran, err, pass)
		}
	}
	if n := runs(); n != 2 {
		t.Errorf("gate ran %d times for two commits, want 2 (the repeat is cached)", n)
	}
	if cache.saves != 2 {
		t.Errorf("cache saved %d verdicts, want 2", cache.saves)
	}
}

// The gate judges the commit, in a checkout of its own: files the agent
// left in the live worktree are not seen, and the gate writes nothing there.
func TestHeadGateNeverRunsInLiveWorktree(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	repo := newRepo(t)
	m := New(nil, nil)
	p := project(repo, "touch gate-was-here; test -f ok.txt")
	ws := prepare(t, m, p, "t1")
	writeFile(t, ws.Dir, "ok.txt", "uncommitted\n")

	v, ran, err := m.HeadGate(ctx, p, "t1", true)
	if err != nil || !ran {
		t.Fatalf("HeadGate: ran %v, err %v", ran, err)
	}
	if v.Passed {
		t.Error("gate passed: it saw the live worktree's uncommitted ok.txt")
	}
	if _, err := os.Stat(filepath.Join(ws.Dir, "gate-was-here")); err == nil {
		t.Error("gate wrote into the live worktree")
	}
	if wts := run(t, repo, "worktree", "list", "--porcelain"); strings.Count(wts, "worktree ") != 2 {
		t.Errorf("gate checkout left registered:\n%s", wts)
	}
}

func TestHeadGateNoGate(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	m := New(nil, nil)
	p := project(repo, "")
	if _, err := m.Prepare(context.Background(), p, "t1"); err != nil {
		t.Fatal(err)
	}
	if _, ran, err := m.HeadGate(context.Background(), p, "t1", true); ran || err != nil {
		t.Errorf("HeadGate without a gate: ran %v, err %v", ran, err)
	}
}

func TestGateTimeout(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	repo := newRepo(t)
	m := New(nil, nil)
	m.GateTimeout = 200 * time.Millisecond
	// The sleep is a grandchild: the timeout must end it too, or the run
	// would wait on its open output.
	p := project(repo, "echo started; sleep 30 | cat")
	if _, err := m.Prepare(ctx, p, "t1"); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	v, ran, err := m.HeadGate(ctx, p, "t1", true)
	if err != nil || !ran {
		t.Fatalf("HeadGate: ran %v, err %v", ran, err)
	}
	if v.Passed || !strings.Contains(v.Tail, "started") || !strings.Contains(v.Tail, "timed out") {
		t.Errorf("timed-out gate = %+v, want a failure saying so", v)
	}
	if took := time.Since(began); took > 10*time.Second {
		t.Errorf("timed-out gate took %s", took)
	}
}

// A project that is one folder of a monorepo: its session and its gate run
// in that folder of the worktree.
func TestSubfolderProject(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	repo := newRepo(t)
	commitFile(t, repo, "web/here.txt", "web\n", "web project")
	p := project(filepath.Join(repo, "web"), "test -f here.txt")
	m := New(nil, nil)

	ws := prepare(t, m, p, "t1")
	if want := filepath.Join(repo, "web", ".buildstation", "worktrees", "t1", "web"); ws.Dir != want {
		t.Errorf("Dir = %s, want %s", ws.Dir, want)
	}
	v, ran, err := m.HeadGate(ctx, p, "t1", true)
	if err != nil || !ran || !v.Passed {
		t.Errorf("HeadGate = %+v, ran %v, err %v; want a pass in web/", v, ran, err)
	}
	if st := run(t, repo, "status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("main repo not clean:\n%s", st)
	}
}

// The station's own children speak for no session: a station started
// where a session's token is set (inside a session) hands it to neither
// its gate nor its git, since ending that session kills whatever carries
// the token.
func TestStationChildrenCarryNoSessionToken(t *testing.T) {
	t.Setenv("BUILDSTATION_TOKEN", "a-session-token")
	t.Setenv("BUILDSTATION_SESSION_ID", "s9")
	repo := newRepo(t)
	m := New(nil, nil)
	p := project(repo, `test -z "$BUILDSTATION_TOKEN$BUILDSTATION_SESSION_ID" || { echo "gate has $BUILDSTATION_TOKEN"; exit 1; }`)
	prepare(t, m, p, "t1")
	v, ran, err := m.HeadGate(t.Context(), p, "t1", true)
	if err != nil || !ran || !v.Passed {
		t.Errorf("HeadGate = %+v, ran %v, err %v; want a pass, the gate seeing no session's token", v, ran, err)
	}
	for _, kv := range cleanEnv() {
		if strings.HasPrefix(kv, "BUILDSTATION_TOKEN=") || strings.HasPrefix(kv, "BUILDSTATION_SESSION_ID=") {
			t.Errorf("git's environment carries %s", kv)
		}
	}
}
