//go:build linux

package station_test

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// A silent agent whose child burns CPU for longer than the window is alive:
// not nudged, shown as quiet with the layer that said so.
func TestSilentBuildIsQuietNotNudged(t *testing.T) {
	t.Parallel()
	s := startStation(t, writeConfig(t, projectTOML("web", gitRepo(t), "1s", "1s")))
	id := s.addTask("web", "build", "print building; child-spin 4s; complete built")
	sawQuiet := false
	deadline := time.Now().Add(15 * time.Second)
	for s.task(id).State == "working" && time.Now().Before(deadline) {
		if ss, ok := s.sessionOf(id); ok && ss.State == "quiet" && strings.Contains(ss.Why, "CPU") {
			sawQuiet = true
		}
		time.Sleep(100 * time.Millisecond)
	}
	got := s.waitState(id, "done", time.Second)
	if !sawQuiet {
		t.Error("never saw the session quiet with CPU named")
	}
	if strings.Contains(s.transcript(id, 1), "Note:") || got.Summary != "built" {
		t.Fatalf("a silent build was nudged:\n%s", s.transcript(id, 1))
	}
}

// A silent agent that commits every second is alive; its commits land on
// its own branch bs/<id>.
func TestSilentCommitterIsNotNudged(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t)
	s := startStation(t, writeConfig(t, projectTOML("web", repo, "1s", "1s")))
	id := s.addTask("web", "commits", "print go; commit-every 500ms 4s; complete committed")
	s.waitState(id, "done", 15*time.Second)
	if strings.Contains(s.transcript(id, 1), "Note:") {
		t.Fatalf("a committing session was nudged:\n%s", s.transcript(id, 1))
	}
	n, _ := strconv.Atoi(strings.TrimSpace(git(t, repo, "rev-list", "--count", "main..bs/"+id)))
	if n < 5 {
		t.Fatalf("%d commits on bs/%s, want the agent's commits there", n, id)
	}
	if strings.TrimSpace(git(t, repo, "status", "--porcelain")) != "" {
		t.Fatal("the worktrees show up in the user's repo")
	}
}

// An agent that spins only in its own process (a CLI's spinner) is not
// alive by the CPU layer, which counts descendants only.
func TestOwnSpinIsNudged(t *testing.T) {
	t.Parallel()
	s := startStation(t, writeConfig(t, projectTOML("web", gitRepo(t), "1s", "1s")))
	id := s.addTask("web", "spinner", "print spinning; spin 30s")
	got := s.waitState(id, "blocked", 15*time.Second)
	if !strings.Contains(got.Reason, "cpu: nothing") {
		t.Fatalf("reason %q", got.Reason)
	}
}

// A wedged agent whose last commit fails the gate is resumed, on requeue, at
// the commit before it, told why, with the bad commit and its dirty files
// kept on the attempt branch.
func TestResumeFromLastGreenCommit(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t)
	s := startStation(t, writeConfig(t, projectTOML("web", repo, "1s", "1s", `gate = "test ! -e bad.txt"`)))
	id := strings.TrimSpace(s.must("task", "add", "--project", "web", "--title", "feature", "--body",
		"script: commit good work; print committed; wedge\nscript-2: print resumed; complete resumed"))
	s.waitState(id, "blocked", 15*time.Second)
	wt := repo + "/.buildstation/worktrees/" + id
	good := strings.TrimSpace(git(t, wt, "rev-parse", "HEAD"))
	// The agent's last commit broke the gate, and it left dirty files.
	writeFile(t, wt+"/bad.txt", "broken\n")
	git(t, wt, "add", "bad.txt")
	git(t, wt, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "-m", "bad commit")
	bad := strings.TrimSpace(git(t, wt, "rev-parse", "HEAD"))
	writeFile(t, wt+"/work.txt", "good work\nuncommitted edit\n")
	writeFile(t, wt+"/notes.md", "untracked \x00 bytes\n")

	s.must("task", "requeue", id)
	got := s.waitState(id, "done", 15*time.Second)
	if got.Attempt != 2 {
		t.Fatalf("attempt %d", got.Attempt)
	}
	if head := strings.TrimSpace(git(t, repo, "rev-parse", "bs/"+id)); head == bad || !strings.Contains(git(t, repo, "rev-list", "bs/"+id), good) {
		t.Fatalf("bs/%s is at %s; want it reset to the green %s", id, head, good)
	}
	attempt := "bs/" + id + "-attempt-1"
	if !strings.Contains(git(t, repo, "rev-list", attempt), bad) {
		t.Fatal("the bad commit is not on the attempt branch")
	}
	if got := git(t, repo, "show", attempt+":work.txt"); got != "good work\nuncommitted edit\n" {
		t.Fatalf("dirty tracked file on %s: %q", attempt, got)
	}
	if got := git(t, repo, "show", attempt+":notes.md"); got != "untracked \x00 bytes\n" {
		t.Fatalf("untracked file on %s: %q", attempt, got)
	}
	prompt := readFile(t, s.home+"/logs/"+id+".2.prompt.md")
	for _, want := range []string{"Attempt 1 was blocked: watchdog", "reset to the last green commit " + good[:10], attempt, "The gate failed on " + bad[:10]} {
		if !strings.Contains(prompt, want) {
			t.Errorf("resume prompt lacks %q:\n%s", want, prompt)
		}
	}
	if !strings.Contains(s.transcript(id, 2), "resumed") {
		t.Fatal("attempt 2 did not run in the worktree")
	}
}

// A done task's worktree is removed (its branch stays); so is a cancelled
// one's, its uncommitted files saved on a branch first.
func TestWorktreesAreRemovedWhenFinished(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t)
	s := startStation(t, writeConfig(t, projectTOML("web", repo, "30s", "30s", "concurrency = 2")))
	done := s.addTask("web", "done", "commit finished work; complete done")
	blocked := s.addTask("web", "blocked", "commit part one; dirty half-written; exit 1")
	s.waitState(done, "done", 10*time.Second)
	s.waitState(blocked, "blocked", 10*time.Second)
	s.must("task", "cancel", blocked)
	deadline := time.Now().Add(5 * time.Second)
	for {
		out := git(t, repo, "worktree", "list")
		if !strings.Contains(out, "/"+done+" ") && !strings.Contains(out, "/"+blocked+" ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("worktrees not removed:\n%s", out)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !strings.Contains(git(t, repo, "log", "--oneline", "bs/"+done), "finished work") {
		t.Fatal("the done task's branch lost its commit")
	}
	if got := git(t, repo, "show", "bs/"+blocked+"-unsaved:dirty-1.txt"); got != "half-written\n" {
		t.Fatalf("the cancelled task's dirty file on bs/%s-unsaved: %q", blocked, got)
	}
}
