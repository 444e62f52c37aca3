//go:build !windows

package gitwt

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
)

// Contents with bytes a text-minded save would mangle: NUL, CR, no
// final newline, invalid UTF-8.
const (
	dirtyContent     = "changed\r\nbinary\x00\xff\xfe tail without newline"
	untrackedContent = "\x00\x01new file\n\n  trailing spaces  "
)

// resumeRepo makes t1's worktree with c1 (passes the gate: ok.txt exists),
// c2 (fails: it deletes ok.txt), an uncommitted change of a tracked file and
// an untracked file in a new folder.
func resumeRepo(t *testing.T, gate string) (m *Manager, ctx context.Context, dir string, c1, c2 string, p supervisor.Repo) {
	t.Helper()
	ctx = context.Background()
	repo := newRepo(t)
	m = New(newCache(), nil)
	p = project(repo, gate)
	ws := prepare(t, m, p, "t1")
	dir = ws.Dir
	writeFile(t, dir, "tracked.txt", "original\n")
	run(t, dir, "add", "tracked.txt")
	c1 = commitFile(t, dir, "ok.txt", "ok\n", "c1 green")
	run(t, dir, "rm", "-q", "ok.txt")
	run(t, dir, "commit", "-q", "-m", "c2 breaks the gate")
	c2 = rev(t, dir, "rev-parse", "HEAD")
	writeFile(t, dir, "tracked.txt", dirtyContent)
	writeFile(t, dir, "new/untracked.bin", untrackedContent)
	return m, ctx, dir, c1, c2, p
}

func TestResumeToLastGreen(t *testing.T) {
	t.Parallel()
	m, ctx, dir, c1, c2, p := resumeRepo(t, "echo gate says no; test -f ok.txt")

	res, err := m.Resume(ctx, p, "t1", 1)
	if err != nil {
		t.Fatal(err)
	}
	if res.Green != c1 || res.GreenSubject != "c1 green" {
		t.Errorf("Green = %s %q, want c1 %s", res.Green, res.GreenSubject, c1)
	}
	if len(res.Kept) != 1 || !strings.HasSuffix(res.Kept[0], " c1 green") || !strings.HasPrefix(c1, strings.Fields(res.Kept[0])[0]) {
		t.Errorf("Kept = %q, want just c1", res.Kept)
	}
	if res.Failed == nil || res.Failed.SHA != c2 || res.Failed.Passed || !strings.Contains(res.Failed.Tail, "gate says no") {
		t.Errorf("Failed = %+v, want c2's failing gate with its output", res.Failed)
	}
	if res.Saved != "bs/t1-attempt-1" || !res.Dirty {
		t.Errorf("Saved = %q, Dirty = %v; want bs/t1-attempt-1, dirty", res.Saved, res.Dirty)
	}
	if len(res.SavedCommits) != 2 || !strings.HasSuffix(res.SavedCommits[1], " c2 breaks the gate") ||
		!strings.Contains(res.SavedCommits[0], "work in progress saved before resume (attempt 1)") {
		t.Errorf("SavedCommits = %q, want the WIP commit then c2", res.SavedCommits)
	}

	// The worktree: on bs/t1, at c1, clean.
	if got := rev(t, dir, "rev-parse", "HEAD"); got != c1 {
		t.Errorf("worktree at %s, want c1 %s", got, c1)
	}
	if got := rev(t, dir, "symbolic-ref", "--short", "HEAD"); got != "bs/t1" {
		t.Errorf("worktree on %s, want bs/t1", got)
	}
	if st := run(t, dir, "status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("worktree not clean after resume:\n%s", st)
	}
	if _, err := os.Stat(filepath.Join(dir, "new", "untracked.bin")); !os.IsNotExist(err) {
		t.Errorf("untracked file still in the worktree: %v", err)
	}

	// The attempt branch: c2, then every byte of the dirty work.
	if got := rev(t, dir, "rev-parse", "bs/t1-attempt-1~1"); got != c2 {
		t.Errorf("attempt branch's parent %s, want c2 %s", got, c2)
	}
	for path, want := range map[string]string{"tracked.txt": dirtyContent, "new/untracked.bin": untrackedContent} {
		if got := run(t, dir, "show", "bs/t1-attempt-1:"+path); got != want {
			t.Errorf("saved %s = %q, want %q", path, got, want)
		}
	}
	if got := run(t, dir, "log", "-1", "--format=%ae", "bs/t1-attempt-1"); got != "test@example.com\n" {
		t.Errorf("WIP commit by %q, want the user's identity", got)
	}

	// Requeued again at the same attempt, with new work: a second branch.
	run(t, dir, "rm", "-q", "ok.txt")
	run(t, dir, "commit", "-q", "-m", "c3 breaks it again")
	res2, err := m.Resume(ctx, p, "t1", 1)
	if err != nil {
		t.Fatal(err)
	}
	if res2.Saved != "bs/t1-attempt-1-2" || res2.Dirty || res2.Green != c1 {
		t.Errorf("second Resume = %+v, want saved on bs/t1-attempt-1-2, clean, green c1", res2)
	}
	if got := rev(t, dir, "rev-parse", "bs/t1-attempt-1~1"); got != c2 {
		t.Errorf("first attempt branch moved: parent %s", got)
	}

	// Nothing later than green and nothing dirty: no branch.
	res3, err := m.Resume(ctx, p, "t1", 2)
	if err != nil {
		t.Fatal(err)
	}
	if res3.Saved != "" || res3.Green != c1 || res3.Failed != nil {
		t.Errorf("idle Resume = %+v, want nothing saved", res3)
	}
	if branches := run(t, dir, "branch", "--list", "bs/t1-attempt-2*"); branches != "" {
		t.Errorf("idle Resume made branches: %s", branches)
	}
}

func TestResumeNoGateKeepsCommitsSavesDirt(t *testing.T) {
	t.Parallel()
	m, ctx, dir, _, c2, p := resumeRepo(t, "")

	res, err := m.Resume(ctx, p, "t1", 3)
	if err != nil {
		t.Fatal(err)
	}
	if res.Green != c2 || res.Failed != nil || len(res.Kept) != 2 {
		t.Errorf("Resume = %+v, want HEAD c2 green and both commits kept", res)
	}
	if res.Saved != "bs/t1-attempt-3" || !res.Dirty || len(res.SavedCommits) != 1 {
		t.Errorf("Saved %q, Dirty %v, SavedCommits %q; want the WIP commit on bs/t1-attempt-3", res.Saved, res.Dirty, res.SavedCommits)
	}
	if got := rev(t, dir, "rev-parse", "HEAD"); got != c2 {
		t.Errorf("worktree at %s, want c2", got)
	}
	if st := run(t, dir, "status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("worktree not clean:\n%s", st)
	}
	if got := run(t, dir, "show", "bs/t1-attempt-3:new/untracked.bin"); got != untrackedContent {
		t.Errorf("saved untracked file = %q", got)
	}
}

// No commit since the base passes: the base is green and every commit is
// saved.
func TestResumeNothingGreen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	repo := newRepo(t)
	base := rev(t, repo, "rev-parse", "HEAD")
	m := New(newCache(), nil)
	p := project(repo, "false")
	ws := prepare(t, m, p, "t1")
	c1 := commitFile(t, ws.Dir, "a", "a\n", "c1")
	c2 := commitFile(t, ws.Dir, "b", "b\n", "c2")

	res, err := m.Resume(ctx, p, "t1", 1)
	if err != nil {
		t.Fatal(err)
	}
	if res.Green != base || res.GreenSubject != "initial" || len(res.Kept) != 0 {
		t.Errorf("Resume = %+v, want the base green, nothing kept", res)
	}
	if res.Failed == nil || res.Failed.SHA != c1 {
		t.Errorf("Failed = %+v, want c1, the first commit after the base", res.Failed)
	}
	if res.Dirty || !slices.Equal(res.SavedCommits, []string{rev(t, repo, "log", "-1", "--format=%h c2", c2), rev(t, repo, "log", "-1", "--format=%h c1", c1)}) {
		t.Errorf("SavedCommits = %q, want c2, c1", res.SavedCommits)
	}
}

// With no identity configured anywhere, the save is still made, by Build
// Station.
func TestResumeWithoutIdentity(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	repo := newRepo(t)
	m := New(nil, nil)
	p := project(repo, "")
	ws := prepare(t, m, p, "t1")
	run(t, repo, "config", "--unset", "user.name")
	run(t, repo, "config", "--unset", "user.email")
	writeFile(t, ws.Dir, "wip.txt", "wip")

	res, err := m.Resume(ctx, p, "t1", 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := run(t, repo, "log", "-1", "--format=%an <%ae>", res.Saved); got != "Build Station <buildstation@localhost>\n" {
		t.Errorf("WIP commit by %q", got)
	}
}

// An agent that switched the worktree to a side branch: its commits are
// saved from HEAD, and the worktree goes back to bs/t1.
func TestResumeFromSideBranch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	repo := newRepo(t)
	m := New(nil, nil)
	p := project(repo, "")
	ws := prepare(t, m, p, "t1")
	c1 := commitFile(t, ws.Dir, "a", "a\n", "c1")
	run(t, ws.Dir, "switch", "-q", "-c", "feature")
	c2 := commitFile(t, ws.Dir, "b", "b\n", "c2")

	res, err := m.Resume(ctx, p, "t1", 1)
	if err != nil {
		t.Fatal(err)
	}
	if res.Green != c2 || res.Saved != "" {
		t.Errorf("Resume = %+v, want HEAD c2 green (no gate), nothing saved", res)
	}
	if got := rev(t, ws.Dir, "symbolic-ref", "--short", "HEAD"); got != "bs/t1" {
		t.Errorf("worktree on %s, want bs/t1", got)
	}
	if got := rev(t, repo, "rev-parse", "bs/t1"); got != c2 {
		t.Errorf("bs/t1 at %s, want c2 (c1 was %s)", got, c1)
	}
}

// HEAD moved behind the branch (an agent checked out an old commit): the
// branch's newer commits are on no other branch, so resume refuses and
// changes nothing.
func TestResumeRefusesToDropBranchCommits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	repo := newRepo(t)
	m := New(nil, nil)
	p := project(repo, "")
	ws := prepare(t, m, p, "t1")
	c1 := commitFile(t, ws.Dir, "a", "a\n", "c1")
	run(t, ws.Dir, "switch", "-q", "--detach", "HEAD~1")

	if _, err := m.Resume(ctx, p, "t1", 1); err == nil || !strings.Contains(err.Error(), "resume t1") {
		t.Fatalf("Resume = %v, want a refusal", err)
	}
	if got := rev(t, repo, "rev-parse", "bs/t1"); got != c1 {
		t.Errorf("bs/t1 moved to %s", got)
	}
}

// With no commit of the task green, the worktree goes back to its base,
// and the resume says whether the gate passes there: a base the gate
// fails on is never called green.
func TestResumeToABaseTheGateFails(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	repo := newRepo(t)
	m := New(newCache(), nil)
	p := project(repo, "echo FAIL: no ok.txt; test -f ok.txt")
	ws := prepare(t, m, p, "t1")
	base := rev(t, ws.Dir, "rev-parse", "HEAD")
	res, err := m.Resume(ctx, p, "t1", 1)
	if err != nil {
		t.Fatal(err)
	}
	if res.Green != base || !res.AtBase || res.BaseGate == nil || res.BaseGate.Passed || !strings.Contains(res.BaseGate.Tail, "FAIL: no ok.txt") {
		t.Fatalf("Resume = %+v (base gate %+v), want at the base %s with its failing verdict", res, res.BaseGate, base)
	}
}
