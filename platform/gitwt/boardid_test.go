package gitwt

import (
	"context"
	"testing"
)

// Two homes (boards) on one repository both have a task t1. Each gets a
// branch of its own: the second never starts from the first's commit, and
// a requeue or resume of either stays on its own.
func TestBoardsOnOneRepositoryNeverShareABranch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	repo := newRepo(t)
	head := rev(t, repo, "rev-parse", "HEAD")
	p := project(repo, "")

	first := New(newCache(), nil)
	first.BoardID = "aaaaaa"
	ws1, err := first.Prepare(ctx, p, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if ws1.Branch != "bs/aaaaaa/t1" {
		t.Fatalf("branch %q, want bs/aaaaaa/t1", ws1.Branch)
	}
	setIdentity(t, ws1.Dir)
	mine := commitFile(t, ws1.Dir, "a.txt", "first board's work\n", "first board")
	if err := first.Remove(ctx, p, "t1"); err != nil {
		t.Fatal(err)
	}

	// A fresh home on the same repository: its t1 is another task.
	second := New(newCache(), nil)
	second.BoardID = "bbbbbb"
	ws2, err := second.Prepare(ctx, p, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if ws2.Branch != "bs/bbbbbb/t1" || ws2.Base != head {
		t.Fatalf("second board's t1: %+v, want bs/bbbbbb/t1 from %s", ws2, head)
	}
	if got := rev(t, ws2.Dir, "rev-parse", "HEAD"); got != head {
		t.Errorf("second board's worktree starts at %s (the first board's commit is %s), want %s", got, mine, head)
	}
	// The first board's work is where it left it.
	if got := rev(t, repo, "rev-parse", "bs/aaaaaa/t1"); got != mine {
		t.Errorf("first board's branch at %s, want %s", got, mine)
	}
}

// Two homes on one repository each running their t1 at the same time: each
// has its own folder on its own branch, neither takes over the other's.
func TestBoardsOnOneRepositoryKeepTheirOwnWorktrees(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	repo := newRepo(t)
	p := project(repo, "")
	first, second := New(newCache(), nil), New(newCache(), nil)
	first.BoardID, second.BoardID = "aaaaaa", "bbbbbb"
	ws1, err := first.Prepare(ctx, p, "t1")
	if err != nil {
		t.Fatal(err)
	}
	ws2, err := second.Prepare(ctx, p, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if ws1.Dir == ws2.Dir {
		t.Fatalf("both boards' t1 run in %s", ws1.Dir)
	}
	for _, c := range []struct {
		dir, branch string
	}{{ws1.Dir, "bs/aaaaaa/t1"}, {ws2.Dir, "bs/bbbbbb/t1"}} {
		if got := rev(t, c.dir, "rev-parse", "--abbrev-ref", "HEAD"); got != c.branch {
			t.Errorf("%s is on %s, want %s", c.dir, got, c.branch)
		}
	}
}
