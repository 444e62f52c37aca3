package station

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/platform/evidence"
	"github.com/buildstation/buildstation/supervisor"
)

// gitIn runs git in dir (outside any bubble's timers: a real process).
func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, out)
	}
}

// An agent that never commits is nudged after one idle window: the
// worktree made for it just before it started moved HEAD, but that is not
// its work. (The real commits layer against a real worktree; the station
// runs in a bubble, so git's real dates are all "after" its fake clock:
// only what the reflog says tells the creation from a commit.)
func TestAgentThatNeverCommitsIsNudgedAfterOneWindow(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git CLI")
	}
	repo := t.TempDir()
	gitIn(t, repo, "init", "-q", "-b", "main")
	gitIn(t, repo, "commit", "-q", "--allow-empty", "-m", "init")
	wt := filepath.Join(repo, ".buildstation", "worktrees", "t1")
	gitIn(t, repo, "worktree", "add", "-q", "-b", "bs/t1", wt)
	synctest.Test(t, func(t *testing.T) {
		p := project("web", 5*time.Minute, 5*time.Minute)
		p.Path = wt
		h := startWith(t, func(o *Options) {
			o.Probers = []supervisor.Prober{evidence.NewCommits(evidence.CommitOptions{})}
		}, p)
		task := h.add("web", "never commits")
		pr := h.proc()
		pr.say("thinking\r\n")
		advance(5*time.Minute + time.Millisecond)
		s := h.session(task.ID)
		if s.State != supervisor.SessNudged {
			t.Fatalf("after one idle window the session is %s (%s), want nudged", s.State, s.Why)
		}
	})
}
