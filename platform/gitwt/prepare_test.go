package gitwt

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPrepareCreatesWorktreeFromHead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	repo := newRepo(t)
	head := rev(t, repo, "rev-parse", "HEAD")
	m := New(newCache(), nil)
	p := project(repo, "")

	ws := prepare(t, m, p, "t1")
	want := filepath.Join(repo, ".buildstation", "worktrees", "t1")
	if ws.Dir != want || !ws.Git || ws.Branch != "bs/t1" || ws.Base != head {
		t.Fatalf("Prepare = %+v, want dir %s on bs/t1 from %s", ws, want, head)
	}
	if got := rev(t, ws.Dir, "rev-parse", "--abbrev-ref", "HEAD"); got != "bs/t1" {
		t.Errorf("worktree on %q, want bs/t1", got)
	}
	if got := rev(t, ws.Dir, "rev-parse", "HEAD"); got != head {
		t.Errorf("worktree HEAD %s, want %s", got, head)
	}

	// Again, as a requeue would: the same worktree, reused as is.
	writeFile(t, ws.Dir, "scratch.txt", "agent's work\n")
	ws2, err := m.Prepare(ctx, p, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if ws2 != ws {
		t.Errorf("second Prepare = %+v, want %+v", ws2, ws)
	}
	if _, err := os.Stat(filepath.Join(ws.Dir, "scratch.txt")); err != nil {
		t.Errorf("reused worktree lost the agent's file: %v", err)
	}

	exclude, err := os.ReadFile(filepath.Join(repo, ".git", "info", "exclude"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, l := range strings.Split(string(exclude), "\n") {
		if l == ".buildstation/" {
			n++
		}
	}
	if n != 1 {
		t.Errorf(".git/info/exclude lists .buildstation/ %d times, want once:\n%s", n, exclude)
	}
	if st := run(t, repo, "status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("main repo not clean:\n%s", st)
	}
}

func TestPrepareCreatesInfoDir(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	if err := os.RemoveAll(filepath.Join(repo, ".git", "info")); err != nil {
		t.Fatal(err)
	}
	if _, err := New(nil, nil).Prepare(context.Background(), project(repo, ""), "t1"); err != nil {
		t.Fatal(err)
	}
	if st := run(t, repo, "status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("main repo not clean:\n%s", st)
	}
}

func TestPrepareFromBaseBranch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	repo := newRepo(t)
	run(t, repo, "switch", "-q", "-c", "develop")
	dev := commitFile(t, repo, "dev.txt", "dev\n", "develop work")
	run(t, repo, "switch", "-q", "main")
	p := project(repo, "")
	p.Base = "develop"

	ws, err := New(nil, nil).Prepare(ctx, p, "t2")
	if err != nil {
		t.Fatal(err)
	}
	if ws.Base != dev {
		t.Errorf("Base = %s, want develop's %s", ws.Base, dev)
	}
	if got := rev(t, ws.Dir, "rev-parse", "HEAD"); got != dev {
		t.Errorf("worktree HEAD %s, want develop's %s", got, dev)
	}
}

func TestPrepareNotGit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := project(dir, "true")
	m := New(nil, nil)
	ws, err := m.Prepare(context.Background(), p, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if ws.Dir != dir || ws.Git {
		t.Errorf("Prepare = %+v, want the folder itself, not git", ws)
	}
	if _, ran, err := m.HeadGate(context.Background(), p, "t1", true); ran || err != nil {
		t.Errorf("HeadGate on a non-git folder: ran %v, err %v", ran, err)
	}
	if err := m.Remove(context.Background(), p, "t1"); err != nil {
		t.Errorf("Remove on a non-git folder: %v", err)
	}
}

// A worktree removed earlier comes back on its existing branch, with the
// work committed there, and its base found again.
func TestPrepareReusesBranchAfterRemove(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	repo := newRepo(t)
	base := rev(t, repo, "rev-parse", "HEAD")
	m := New(nil, nil)
	p := project(repo, "")
	ws := prepare(t, m, p, "t1")
	work := commitFile(t, ws.Dir, "a.txt", "a\n", "task work")
	commitFile(t, repo, "main.txt", "m\n", "main moves on")

	if err := m.Remove(ctx, p, "t1"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ws.Dir); !os.IsNotExist(err) {
		t.Fatalf("worktree still there after Remove: %v", err)
	}
	if got := rev(t, repo, "rev-parse", "bs/t1"); got != work {
		t.Fatalf("branch bs/t1 at %s after Remove, want %s", got, work)
	}
	if err := m.Remove(ctx, p, "t1"); err != nil {
		t.Errorf("Remove of a missing worktree: %v", err)
	}

	ws2, err := m.Prepare(ctx, p, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if got := rev(t, ws2.Dir, "rev-parse", "HEAD"); got != work {
		t.Errorf("re-added worktree at %s, want the branch's %s", got, work)
	}
	if ws2.Base != base {
		t.Errorf("Base = %s, want fork point %s", ws2.Base, base)
	}
}

func TestExcludeLine(t *testing.T) {
	for _, tc := range []struct {
		prefix, rel, want string
		ok                bool
	}{
		{"", ".buildstation/worktrees", ".buildstation/", true},
		{"web/", ".buildstation/worktrees", ".buildstation/", true},
		{"", "tmp/wt", "/tmp/wt/", true},
		{"web/", "wt[1]", "/web/wt\\[1]/", true},
		{"", "../elsewhere", "", false},
		{"web/", "../wt", "/wt/", true},
		{"", ".", "", false},
	} {
		got, ok := excludeLine(tc.prefix, tc.rel)
		if got != tc.want || ok != tc.ok {
			t.Errorf("excludeLine(%q, %q) = %q, %v; want %q, %v", tc.prefix, tc.rel, got, ok, tc.want, tc.ok)
		}
	}
}

func TestCheckTaskID(t *testing.T) {
	for id, ok := range map[string]bool{"t1": true, "t-42_x": true, "": false, "../x": false, "a/b": false, ".hidden": false, "-x": false, "x.lock": false} {
		if err := checkTaskID(id); (err == nil) != ok {
			t.Errorf("checkTaskID(%q) = %v, want ok %v", id, err, ok)
		}
	}
}

// Removing a finished task's worktree keeps every uncommitted byte on a
// branch: done or cancelled, nothing is thrown away.
func TestRemoveSavesUncommittedWork(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	repo := newRepo(t)
	m := New(nil, nil)
	p := project(repo, "")
	ws := prepare(t, m, p, "t1")
	commitFile(t, ws.Dir, "a.txt", "a\n", "task work")
	writeFile(t, ws.Dir, "a.txt", "a\nchanged\n")
	writeFile(t, ws.Dir, "new.txt", "untracked\x00bytes")
	if err := m.Remove(ctx, p, "t1"); err != nil {
		t.Fatal(err)
	}
	if got := run(t, repo, "show", "bs/t1-unsaved:a.txt"); got != "a\nchanged\n" {
		t.Errorf("tracked change on bs/t1-unsaved = %q", got)
	}
	if got := run(t, repo, "show", "bs/t1-unsaved:new.txt"); got != "untracked\x00bytes" {
		t.Errorf("untracked file on bs/t1-unsaved = %q", got)
	}
}
