//go:build !windows

package gitwt

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// A task's work, after its worktree is gone: branch, base, head, commits,
// diff stat and the gate's verdict with its time.
func TestWorkAndDiffAfterTheWorktreeIsGone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	repo := newRepo(t)
	base := rev(t, repo, "rev-parse", "HEAD")
	m := New(newTimedCache(), nil)
	p := project(repo, "test -f a.txt")
	ws := prepare(t, m, p, "t1")
	commitFile(t, ws.Dir, "a.txt", "one\n", "add a")
	head := commitFile(t, ws.Dir, "b.txt", "two\n", "add b")
	if _, _, err := m.HeadGate(ctx, p, "t1", true); err != nil {
		t.Fatal(err)
	}
	if err := m.Remove(ctx, p, "t1"); err != nil {
		t.Fatal(err)
	}
	w, ok, err := m.Work(ctx, p, "t1")
	if err != nil || !ok {
		t.Fatalf("Work: %v %v", ok, err)
	}
	if w.Branch != "bs/t1" || w.Base != base || w.Head != head || len(w.Commits) != 2 || !strings.HasSuffix(w.Commits[0], " add b") {
		t.Errorf("Work = %+v", w)
	}
	if w.DiffStat != "2 files changed, 2 insertions(+)" {
		t.Errorf("DiffStat = %q", w.DiffStat)
	}
	if w.Gate == nil || w.Gate.Commit != head || !w.Gate.Passed || w.Gate.CheckedAt.IsZero() {
		t.Errorf("Gate = %+v, want passed on %s with a time", w.Gate, head)
	}
	stat, err := m.Diff(ctx, p, "t1", true)
	if err != nil || !strings.Contains(stat, "a.txt | 1 +") {
		t.Errorf("Diff --stat = %q, %v", stat, err)
	}
	full, err := m.Diff(ctx, p, "t1", false)
	if err != nil || !strings.Contains(full, "+two") {
		t.Errorf("Diff = %q, %v", full, err)
	}
	if _, ok, err := m.Work(ctx, p, "t9"); ok || err != nil {
		t.Errorf("Work of a task with no branch: %v %v", ok, err)
	}
}

// Merge: a fast-forward into the checked-out branch (its files follow),
// then a merge commit; a conflict is refused naming the file, with no ref
// and no file changed.
func TestMergeFastForwardMergeCommitAndConflict(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	repo := newRepo(t)
	main := rev(t, repo, "symbolic-ref", "--short", "HEAD")
	m := New(newCache(), nil)
	p := project(repo, "")
	w1, err := m.Prepare(ctx, p, "t1")
	if err != nil {
		t.Fatal(err)
	}
	w2, err := m.Prepare(ctx, p, "t2")
	if err != nil {
		t.Fatal(err)
	}
	w3, err := m.Prepare(ctx, p, "t3")
	if err != nil {
		t.Fatal(err)
	}
	h1 := commitFile(t, w1.Dir, "one.txt", "one\n", "t1 work")
	commitFile(t, w2.Dir, "two.txt", "two\n", "t2 work")
	commitFile(t, w3.Dir, "one.txt", "clash\n", "t3 clashes")

	got, err := m.Merge(ctx, p, "t1", "")
	if err != nil || !got.FastForward || got.Into != main || got.Commit != h1 {
		t.Fatalf("Merge t1 = %+v, %v; want a fast-forward of %s to %s", got, err, main, h1)
	}
	if rev(t, repo, "rev-parse", "HEAD") != h1 || run(t, repo, "status", "--porcelain") != "" {
		t.Fatalf("the checked-out %s did not follow cleanly", main)
	}
	got, err = m.Merge(ctx, p, "t2", main)
	if err != nil || got.FastForward {
		t.Fatalf("Merge t2 = %+v, %v; want a merge commit", got, err)
	}
	if parents := strings.Fields(rev(t, repo, "log", "-1", "--format=%P")); len(parents) != 2 || rev(t, repo, "cat-file", "-p", "HEAD:two.txt") != "two" {
		t.Fatalf("merge commit parents %v", parents)
	}
	before := rev(t, repo, "rev-parse", "HEAD")
	_, err = m.Merge(ctx, p, "t3", main)
	if !errors.Is(err, supervisor.ErrConflict) || !strings.Contains(err.Error(), "conflicts in one.txt") || !strings.Contains(err.Error(), "nothing was changed") {
		t.Fatalf("Merge t3 = %v, want a conflict naming one.txt", err)
	}
	if rev(t, repo, "rev-parse", "HEAD") != before || run(t, repo, "status", "--porcelain") != "" {
		t.Fatal("a refused merge changed the branch or the files")
	}
	if again, err := m.Merge(ctx, p, "t1", main); err != nil || !again.Already {
		t.Errorf("merging t1 again = %+v, %v; want already", again, err)
	}
}

// timedCache is fakeCache that also says when a verdict was reached, as
// the board does.
type timedCache struct{ *fakeCache }

func newTimedCache() timedCache { return timedCache{newCache()} }

func (c timedCache) GateCheckedAt(ctx context.Context, project, sha string) (time.Time, bool, error) {
	_, _, ok, err := c.GateResult(ctx, project, sha)
	return time.Unix(1700000000, 0).UTC(), ok, err
}
