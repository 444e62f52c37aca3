//go:build linux

package station_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

// A silent agent whose child burns CPU for longer than the window is alive:
// not nudged, shown as quiet with the layer that said so.
func TestSilentBuildIsQuietNotNudged(t *testing.T) {
	t.Parallel()
	// Any CPU at all counts here: on a shared 2-core machine at load 14 a
	// spinning child gets about a tenth of a core, the default threshold,
	// and this test is about the layer seeing a child's CPU, not where the
	// threshold sits (TestCPUProbe covers that).
	s := rig.StartOn(t, rig.WriteConfig(t, rig.ProjectTOML("web", rig.GitRepo(t), "1s", "1s", `cpu_alive = "1%"`)))
	id := s.AddTask("web", "build", "print building; child-spin 4s; complete built")
	sawQuiet := false
	rig.Eventually(t, 15*time.Second, func() bool {
		if ss, ok := s.SessionOf(id); ok && ss.State == "quiet" && strings.Contains(ss.Why, "CPU") {
			sawQuiet = true
		}
		return s.Task(id).State != "working"
	}, "the build to end", s.Log)
	got := s.WaitState(id, "done", time.Second)
	if !sawQuiet {
		t.Error("never saw the session quiet with CPU named")
	}
	if strings.Contains(s.Transcript(id, 1), "Note:") || got.Summary != "built" {
		t.Fatalf("a silent build was nudged:\n%s", s.Transcript(id, 1))
	}
}

// A silent agent that commits every second is alive; its commits land on
// its own branch bs/<id>.
func TestSilentCommitterIsNotNudged(t *testing.T) {
	t.Parallel()
	repo := rig.GitRepo(t)
	s := rig.StartOn(t, rig.WriteConfig(t, rig.ProjectTOML("web", repo, "1s", "1s")))
	id := s.AddTask("web", "commits", "print go; commit-every 500ms 4s; complete committed")
	s.WaitState(id, "done", 15*time.Second)
	if strings.Contains(s.Transcript(id, 1), "Note:") {
		t.Fatalf("a committing session was nudged:\n%s", s.Transcript(id, 1))
	}
	branch := rig.TaskBranch(t, repo, id)
	n, _ := strconv.Atoi(strings.TrimSpace(rig.Git(t, repo, "rev-list", "--count", "main.."+branch)))
	if n < 5 {
		t.Fatalf("%d commits on %s, want the agent's commits there", n, branch)
	}
	if strings.TrimSpace(rig.Git(t, repo, "status", "--porcelain")) != "" {
		t.Fatal("the worktrees show up in the user's repo")
	}
}

// An agent that spins only in its own process (a CLI's spinner) is not
// alive by the CPU layer, which counts descendants only.
func TestOwnSpinIsNudged(t *testing.T) {
	t.Parallel()
	s := rig.StartOn(t, rig.WriteConfig(t, rig.ProjectTOML("web", rig.GitRepo(t), "1s", "1s")))
	id := s.AddTask("web", "spinner", "print spinning; spin 30s")
	got := s.WaitState(id, "blocked", 15*time.Second)
	if !strings.Contains(got.Reason, "cpu: nothing") {
		t.Fatalf("reason %q", got.Reason)
	}
}

// A wedged agent whose last commit fails the gate is resumed, on requeue, at
// the commit before it, told why, with the bad commit and its dirty files
// kept on the attempt branch.
func TestResumeFromLastGreenCommit(t *testing.T) {
	t.Parallel()
	repo := rig.GitRepo(t)
	s := rig.StartOn(t, rig.WriteConfig(t, rig.ProjectTOML("web", repo, "1s", "1s", `gate = "test ! -e bad.txt"`)))
	id := strings.TrimSpace(s.Must("task", "add", "--project", "web", "--title", "feature", "--body",
		"script: commit good work; print committed; wedge\nscript-2: print resumed; complete resumed"))
	s.WaitState(id, "blocked", 15*time.Second)
	wt := repo + "/.buildstation/worktrees/" + strings.TrimPrefix(rig.TaskBranch(t, repo, id), "bs/")
	good := strings.TrimSpace(rig.Git(t, wt, "rev-parse", "HEAD"))
	// The agent's last commit broke the gate, and it left dirty files.
	writeFile(t, wt+"/bad.txt", "broken\n")
	rig.Git(t, wt, "add", "bad.txt")
	rig.Git(t, wt, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "-m", "bad commit")
	bad := strings.TrimSpace(rig.Git(t, wt, "rev-parse", "HEAD"))
	writeFile(t, wt+"/work.txt", "good work\nuncommitted edit\n")
	writeFile(t, wt+"/notes.md", "untracked \x00 bytes\n")

	s.Must("task", "requeue", id)
	got := s.WaitState(id, "done", 15*time.Second)
	if got.Attempt != 2 {
		t.Fatalf("attempt %d", got.Attempt)
	}
	branch := rig.TaskBranch(t, repo, id)
	if head := strings.TrimSpace(rig.Git(t, repo, "rev-parse", branch)); head == bad || !strings.Contains(rig.Git(t, repo, "rev-list", branch), good) {
		t.Fatalf("%s is at %s; want it reset to the green %s", branch, head, good)
	}
	attempt := branch + "-attempt-1"
	if !strings.Contains(rig.Git(t, repo, "rev-list", attempt), bad) {
		t.Fatal("the bad commit is not on the attempt branch")
	}
	if got := rig.Git(t, repo, "show", attempt+":work.txt"); got != "good work\nuncommitted edit\n" {
		t.Fatalf("dirty tracked file on %s: %q", attempt, got)
	}
	if got := rig.Git(t, repo, "show", attempt+":notes.md"); got != "untracked \x00 bytes\n" {
		t.Fatalf("untracked file on %s: %q", attempt, got)
	}
	prompt := readFile(t, s.Home+"/logs/"+id+".2.prompt.md")
	for _, want := range []string{"Attempt 1 was blocked: watchdog", "reset to the last green commit " + good[:10], attempt, "The gate failed on " + bad[:10]} {
		if !strings.Contains(prompt, want) {
			t.Errorf("resume prompt lacks %q:\n%s", want, prompt)
		}
	}
	if !strings.Contains(s.Transcript(id, 2), "resumed") {
		t.Fatal("attempt 2 did not run in the worktree")
	}
}

// A done task's worktree is removed (its branch stays); so is a cancelled
// one's, its uncommitted files saved on a branch first.
func TestWorktreesAreRemovedWhenFinished(t *testing.T) {
	t.Parallel()
	repo := rig.GitRepo(t)
	s := rig.StartOn(t, rig.WriteConfig(t, rig.ProjectTOML("web", repo, "30s", "30s", "concurrency = 2")))
	done := s.AddTask("web", "done", "commit finished work; complete done")
	blocked := s.AddTask("web", "blocked", "commit part one; dirty half-written; exit 1")
	s.WaitState(done, "done", 10*time.Second)
	s.WaitState(blocked, "blocked", 10*time.Second)
	s.Must("task", "cancel", blocked)
	rig.Eventually(t, 5*time.Second, func() error {
		if out := rig.Git(t, repo, "worktree", "list"); strings.Contains(out, "/"+done+" ") || strings.Contains(out, "/"+blocked+" ") {
			return errors.New(out)
		}
		return nil
	}, "the worktrees removed")
	if !strings.Contains(rig.Git(t, repo, "log", "--oneline", rig.TaskBranch(t, repo, done)), "finished work") {
		t.Fatal("the done task's branch lost its commit")
	}
	unsaved := rig.TaskBranch(t, repo, blocked) + "-unsaved"
	if got := rig.Git(t, repo, "show", unsaved+":dirty-1.txt"); got != "half-written\n" {
		t.Fatalf("the cancelled task's dirty file on %s: %q", unsaved, got)
	}
}
