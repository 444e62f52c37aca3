package evidence

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// setupDate dates the commits and reflog entries a test makes before its
// window opens, so that git's whole-second reflog times cannot fall inside
// the window.
const setupDate = "2020-01-01T00:00:00Z"

// git runs git in dir; setup commands carry an old date.
func git(t *testing.T, dir string, setup bool, args ...string) string {
	t.Helper()
	args = append([]string{"-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"}, args...)
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
	if setup {
		cmd.Env = append(cmd.Env, "GIT_AUTHOR_DATE="+setupDate, "GIT_COMMITTER_DATE="+setupDate)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// newRepo makes a repository on main with one old commit.
func newRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, true, "init", "-q", "-b", "main")
	git(t, dir, true, "commit", "-q", "--allow-empty", "-m", "start")
	return dir
}

func probeCommits(t *testing.T, c *Commits, dir string, since time.Time) (supervisor.Life, bool) {
	t.Helper()
	life, alive, err := c.Probe(context.Background(), supervisor.ProbeTarget{SessionID: "s1", Dir: dir}, since)
	if err != nil {
		t.Fatal(err)
	}
	return life, alive
}

func observeCommits(t *testing.T, c *Commits, dir string) {
	t.Helper()
	if err := c.Observe(supervisor.ProbeTarget{SessionID: "s1", Dir: dir}); err != nil {
		t.Fatal(err)
	}
}

func TestCommitsNoCommit(t *testing.T) {
	dir := newRepo(t)
	c := NewCommits(CommitOptions{})
	since := time.Now()
	if life, alive := probeCommits(t, c, dir, since); alive {
		t.Fatalf("first probe, no commit: alive (%q)", life.Detail)
	}
	observeCommits(t, c, dir)
	if life, alive := probeCommits(t, c, dir, since); alive {
		t.Fatalf("no commit: alive (%q)", life.Detail)
	}
}

func TestCommitsCommitAfterSince(t *testing.T) {
	dir := newRepo(t)
	c := NewCommits(CommitOptions{})
	observeCommits(t, c, dir)
	since := time.Now()
	git(t, dir, false, "commit", "-q", "--allow-empty", "-m", "one")
	git(t, dir, false, "commit", "-q", "--allow-empty", "-m", "two")
	sha := git(t, dir, false, "rev-parse", "HEAD")

	life, alive := probeCommits(t, c, dir, since)
	if !alive {
		t.Fatal("commits after since: not alive")
	}
	if want := "HEAD moved to " + sha[:7] + " on main (2 commits)"; life.Detail != want || life.Layer != "commits" {
		t.Errorf("life = %+v, want detail %q", life, want)
	}
	if life.At.Before(since) {
		t.Errorf("life.At = %v, before since %v", life.At, since)
	}
	// Nothing moved since that check. (The reflog dates entries in whole
	// seconds, so the next window starts a second on.)
	if life, alive := probeCommits(t, c, dir, time.Now().Add(time.Second)); alive {
		t.Errorf("second probe without a commit: alive (%q)", life.Detail)
	}
}

func TestCommitsFirstProbeAfterCommit(t *testing.T) {
	// The station restarted, or never called Observe: git's own dates
	// show the commit made after since.
	dir := newRepo(t)
	since := time.Now()
	git(t, dir, false, "commit", "-q", "--allow-empty", "-m", "one")
	sha := git(t, dir, false, "rev-parse", "HEAD")
	life, alive := probeCommits(t, NewCommits(CommitOptions{}), dir, since)
	if want := "HEAD moved to " + sha[:7] + " on main"; !alive || life.Detail != want {
		t.Fatalf("alive=%v detail=%q, want alive with %q", alive, life.Detail, want)
	}
}

func TestCommitsLinkedWorktree(t *testing.T) {
	repo := newRepo(t)
	wt := filepath.Join(repo, ".buildstation", "worktrees", "t1")
	git(t, repo, true, "worktree", "add", "-q", "-b", "bs/t1", wt)
	c := NewCommits(CommitOptions{})
	observeCommits(t, c, wt)

	// A commit in the main worktree is another session's life, not this one's.
	since := time.Now()
	git(t, repo, false, "commit", "-q", "--allow-empty", "-m", "on main")
	if life, alive := probeCommits(t, c, wt, since); alive {
		t.Fatalf("commit on main: worktree session alive (%q)", life.Detail)
	}

	since = time.Now()
	git(t, wt, false, "commit", "-q", "--allow-empty", "-m", "in the worktree")
	sha := git(t, wt, false, "rev-parse", "HEAD")
	life, alive := probeCommits(t, c, wt, since)
	if want := "HEAD moved to " + sha[:7] + " on bs/t1 (1 commit)"; !alive || life.Detail != want {
		t.Fatalf("alive=%v detail=%q, want alive with %q", alive, life.Detail, want)
	}
}

func TestCommitsSubdirectory(t *testing.T) {
	dir := newRepo(t)
	sub := filepath.Join(dir, "src", "pkg")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	repo, err := findRepo(sub)
	if err != nil || repo.gitDir != filepath.Join(dir, ".git") {
		t.Fatalf("findRepo(subdir) = %+v, %v; want %s/.git", repo, err, dir)
	}
}

func TestCommitsNotARepo(t *testing.T) {
	dir := t.TempDir()
	c := NewCommits(CommitOptions{})
	if err := c.Observe(supervisor.ProbeTarget{SessionID: "s1", Dir: dir}); err != nil {
		t.Fatalf("Observe of a plain dir: %v", err)
	}
	for _, d := range []string{dir, filepath.Join(dir, "missing"), ""} {
		life, alive, err := c.Probe(context.Background(), supervisor.ProbeTarget{SessionID: "s1", Dir: d}, time.Time{})
		if alive || err != nil {
			t.Errorf("Probe(%q) = %+v, %v, %v; want not alive, no error", d, life, alive, err)
		}
	}
}

func TestCommitsPackedRefs(t *testing.T) {
	dir := newRepo(t)
	git(t, dir, true, "pack-refs", "--all")
	if _, err := os.Stat(filepath.Join(dir, ".git", "refs", "heads", "main")); !os.IsNotExist(err) {
		t.Fatalf("pack-refs left the loose ref (stat err %v)", err)
	}
	repo, err := findRepo(dir)
	if err != nil {
		t.Fatal(err)
	}
	h, err := repo.head()
	if want := git(t, dir, false, "rev-parse", "HEAD"); err != nil || h.sha != want || h.branch != "main" {
		t.Fatalf("head() = %+v, %v; want %s on main", h, err, want)
	}

	c := NewCommits(CommitOptions{})
	observeCommits(t, c, dir)
	if life, alive := probeCommits(t, c, dir, time.Now()); alive {
		t.Fatalf("packed, no commit: alive (%q)", life.Detail)
	}
	since := time.Now()
	git(t, dir, false, "commit", "-q", "--allow-empty", "-m", "one")
	git(t, dir, false, "pack-refs", "--all")
	sha := git(t, dir, false, "rev-parse", "HEAD")
	life, alive := probeCommits(t, c, dir, since)
	if want := "HEAD moved to " + sha[:7] + " on main (1 commit)"; !alive || life.Detail != want {
		t.Fatalf("alive=%v detail=%q, want alive with %q", alive, life.Detail, want)
	}
}

func TestCommitsDetachedHead(t *testing.T) {
	dir := newRepo(t)
	git(t, dir, true, "checkout", "-q", "--detach")
	c := NewCommits(CommitOptions{})
	observeCommits(t, c, dir)
	since := time.Now()
	git(t, dir, false, "commit", "-q", "--allow-empty", "-m", "detached")
	sha := git(t, dir, false, "rev-parse", "HEAD")
	life, alive := probeCommits(t, c, dir, since)
	if want := "HEAD moved to " + sha[:7] + " (1 commit)"; !alive || life.Detail != want {
		t.Fatalf("alive=%v detail=%q, want alive with %q", alive, life.Detail, want)
	}
}

func TestCommitsForget(t *testing.T) {
	dir := newRepo(t)
	c := NewCommits(CommitOptions{})
	observeCommits(t, c, dir)
	c.Forget("s1")
	c.mu.Lock()
	n := len(c.seen)
	c.mu.Unlock()
	if n != 0 {
		t.Fatalf("%d sessions kept after Forget", n)
	}
}

func TestNewestReflog(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "HEAD")
	long := strings.Repeat("x", 5000)
	for _, tc := range []struct {
		content string
		want    int64 // unix seconds; 0 = none
	}{
		{"0000 1111 A <a@b> 1700000000 +0000\tcommit (initial): x\n1111 2222 A B <a@b> 1700000100 -0700\tcommit: y\n", 1700000100},
		{"1111 2222 A <a@b> 1700000000 +0000\tcommit: " + long + "\n", 0}, // last line longer than the tail
		{"0000 1111 A <a@b> 1700000000 +0000\tx\n" + long + "\n1111 2222 A <a@b> 1700000200 +0000\ty\n\n", 1700000200},
		{"garbage\n", 0},
		{"", 0},
	} {
		if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		got, _, ok := newestReflog(path)
		if tc.want == 0 {
			if ok {
				t.Errorf("newestReflog(%.40q…) = %v, want none", tc.content, got)
			}
			continue
		}
		// Reported as the end of its whole second.
		if want := time.Unix(tc.want+1, 0).Add(-time.Nanosecond); !ok || !got.Equal(want) {
			t.Errorf("newestReflog(%.40q…) = %v, %v; want %v", tc.content, got, ok, want)
		}
	}
}

// Only the agent's own work is life: a worktree made, or reset, just
// before the session started moved HEAD, but nobody committed.
func TestCommitsIgnoreWorktreeCreationAndReset(t *testing.T) {
	repo := newRepo(t)
	git(t, repo, true, "commit", "-q", "--allow-empty", "-m", "second")
	since := time.Now()
	wt := filepath.Join(repo, ".buildstation", "worktrees", "t1")
	git(t, repo, false, "worktree", "add", "-q", "-b", "bs/t1", wt)
	c := NewCommits(CommitOptions{})
	observeCommits(t, c, wt)
	if life, alive := probeCommits(t, c, wt, since); alive {
		t.Fatalf("a new worktree counted as life: %q", life.Detail)
	}
	// Reset before the session (a requeue), observed or not.
	since = time.Now()
	git(t, wt, false, "reset", "-q", "--hard", "HEAD~1")
	if life, alive := probeCommits(t, NewCommits(CommitOptions{}), wt, since); alive {
		t.Fatalf("a reset counted as life (no baseline): %q", life.Detail)
	}
	c2 := NewCommits(CommitOptions{})
	observeCommits(t, c2, wt)
	if life, alive := probeCommits(t, c2, wt, since); alive {
		t.Fatalf("a reset counted as life: %q", life.Detail)
	}
	// The agent's first commit is.
	git(t, wt, false, "commit", "-q", "--allow-empty", "-m", "work")
	if _, alive := probeCommits(t, c2, wt, since); !alive {
		t.Fatal("the agent's commit did not count")
	}
}
