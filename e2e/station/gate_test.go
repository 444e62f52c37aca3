//go:build linux

package station_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

// gateRepo is a real repository whose `make test` fails until work.txt (the
// file the fake agent's commits append to) says "fixed".
func gateRepo(t *testing.T) string {
	t.Helper()
	repo := rig.GitRepo(t)
	writeFile(t, filepath.Join(repo, "Makefile"), "test:\n\t@grep -q fixed work.txt || { echo 'FAIL: TestLogin: want fixed'; exit 1; }\n")
	rig.Git(t, repo, "add", "Makefile")
	rig.Git(t, repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "a failing test")
	return repo
}

// Done means the gate passes: an agent that completes on a red HEAD is
// told the failure and its task stays working; once it fixes and commits,
// completing lands the task on that green commit.
func TestCompleteOnAFailingGateIsRefused(t *testing.T) {
	t.Parallel()
	repo := gateRepo(t)
	s := rig.StartOn(t, rig.WriteConfig(t, rig.ProjectTOML("web", repo, "60s", "60s", `gate = "make test"`)+rig.ProjectTOML("notes", t.TempDir(), "60s", "60s")))
	// A project without a gate is named: its done is the agent's word.
	if out := s.Must("status"); !strings.Contains(out, "no gate: notes (") || strings.Contains(out, "web (") {
		t.Errorf("status does not say which projects have no gate:\n%s", out)
	}
	id := s.AddTask("web", "fix login", "commit try; complete all fixed (not really); print still here; sleep 2s; commit fixed; complete fixed for real")

	s.WaitTranscript(id, "still here", 30*time.Second)
	log := s.Transcript(id, 1)
	for _, want := range []string{"complete failed", "the gate (make test) fails on your HEAD", "FAIL: TestLogin: want fixed"} {
		if !strings.Contains(log, want) {
			t.Errorf("the agent was not told %q:\n%s", want, rig.Tail(log, 20))
		}
	}
	if got := s.Task(id); got.State != "working" {
		t.Fatalf("after a refused completion the task is %s, want working", got.State)
	}

	s.WaitState(id, "done", 60*time.Second)
	branch := rig.TaskBranch(t, repo, id)
	head := strings.TrimSpace(rig.Git(t, repo, "rev-parse", branch))
	if subject := strings.TrimSpace(rig.Git(t, repo, "log", "-1", "--format=%s", branch)); subject != "fixed" {
		t.Errorf("the task ended on %s %q, want the fixing commit", head, subject)
	}
}

// Only the agent's own work is life: an agent that never commits, in a
// worktree made for it a moment before, is nudged after one idle window,
// never first called quiet because git moved HEAD to create the worktree.
func TestAgentThatNeverCommitsIsNudgedAfterOneIdleWindow(t *testing.T) {
	t.Parallel()
	repo := rig.GitRepo(t)
	s := rig.StartOn(t, rig.WriteConfig(t, rig.ProjectTOML("web", repo, "3s", "60s")))
	id := s.AddTask("web", "silent", "sleep 60s")
	s.WaitSession(id, 30*time.Second, func(se rig.Session) bool { return se.State == "nudged" })
	for _, line := range strings.Split(s.Log.String(), "\n") {
		if strings.Contains(line, "session="+id+".1") && strings.Contains(line, "to=quiet") {
			t.Fatalf("the session was called quiet before its nudge:\n%s", line)
		}
	}
	if why := s.Must("session", "ls"); strings.Contains(why, "HEAD moved") {
		t.Fatalf("session ls names a HEAD move nobody made:\n%s", why)
	}
}

// taskWork is what `task show --json` says of a task's work.
type taskWork struct {
	State     string   `json:"state"`
	Branch    string   `json:"branch"`
	Base      string   `json:"base"`
	Head      string   `json:"head"`
	Commits   []string `json:"commits"`
	DiffStat  string   `json:"diff_stat"`
	MergeInto string   `json:"merge_into"`
	Gate      struct {
		Commit    string    `json:"commit"`
		Passed    bool      `json:"passed"`
		CheckedAt time.Time `json:"checked_at"`
	} `json:"gate"`
	Merged *struct {
		Into   string    `json:"into"`
		Commit string    `json:"commit"`
		At     time.Time `json:"at"`
	} `json:"merged"`
}

// Finished work is one command away on a real repository: task show names
// the branch, head and the gate's verdict; task diff shows the work; a
// blocked task is accepted as a person's decision; merge fast-forwards the
// project's branch, and a conflicting task is refused naming the file,
// with nothing changed. The work stays on record through all of it: after
// every step, and a restart of the station after each, task show and task
// diff say the same, merge included.
func TestShowDiffAcceptMerge(t *testing.T) {
	t.Parallel()
	repo := gateRepo(t)
	s := rig.StartOn(t, rig.WriteConfig(t, rig.ProjectTOML("web", repo, "60s", "60s", `gate = "make test"`, "concurrency = 2")))
	a := s.AddTask("web", "fix", "commit fixed; complete fixed it")
	// b's second attempt (after a requeue) only blocks: its work is the
	// first attempt's, and must stay on record through the requeue.
	b := s.AddTask("web", "fix too", "commit fixed as well; block forgot to say done\nscript-2: block still forgot")
	s.WaitState(a, "done", 60*time.Second)
	s.WaitState(b, "blocked", 60*time.Second)

	branch := rig.TaskBranch(t, repo, a)
	head := strings.TrimSpace(rig.Git(t, repo, "rev-parse", branch))
	var first, firstB taskWork
	s.MustJSON(&first, "task", "show", a, "--json")
	if first.Branch != branch || first.Head != head || len(first.Commits) != 1 || first.Gate.Commit != head || !first.Gate.Passed || first.Gate.CheckedAt.IsZero() {
		t.Errorf("task show --json = %+v, want %s at %s, one commit, the gate passed there", first, branch, head)
	}
	if first.Base == "" || first.Base == first.Head || first.DiffStat == "" || first.MergeInto != "main" {
		t.Errorf("task show --json = %+v, want a base before its head and a diff stat", first)
	}
	s.MustJSON(&firstB, "task", "show", b, "--json")

	// stillOnRecord restarts the station, then checks that task show and
	// task diff say of a and b what they said first.
	stillOnRecord := func(step string) {
		t.Helper()
		s.Stop()
		s = rig.StartOn(t, s.Home)
		for _, want := range []taskWork{first, firstB} {
			id := a
			if want.Branch != branch {
				id = b
			}
			var got taskWork
			s.MustJSON(&got, "task", "show", id, "--json")
			if got.Branch != want.Branch || got.Base != want.Base || got.Head != want.Head || strings.Join(got.Commits, "|") != strings.Join(want.Commits, "|") || got.DiffStat != want.DiffStat {
				t.Errorf("after %s and a restart, task show %s --json = base %s head %s commits %q stat %q; want base %s head %s commits %q stat %q",
					step, id, got.Base, got.Head, got.Commits, got.DiffStat, want.Base, want.Head, want.Commits, want.DiffStat)
			}
			d, errOut, code := s.Run("task", "diff", id)
			if code != 0 || !strings.Contains(d, "+fixed") {
				t.Errorf("after %s and a restart, task diff %s: exit %d %s\n%s", step, id, code, errOut, d)
			}
			if d := s.Must("task", "diff", id, "--stat"); !strings.Contains(d, "work.txt | 1 +") {
				t.Errorf("after %s and a restart, task diff %s --stat:\n%s", step, id, d)
			}
		}
	}
	stillOnRecord("done and blocked")

	s.Must("task", "requeue", b, "--note", "say done this time")
	rig.Eventually(t, 60*time.Second, func() error {
		if got := s.Task(b); got.Attempt != 2 || got.State != "blocked" {
			return fmt.Errorf("task %s is %s on attempt %d (%s)", b, got.State, got.Attempt, got.Reason)
		}
		return nil
	}, "b's second attempt to block", "station log:", s.Log)
	stillOnRecord("a requeue")

	out := s.Must("task", "accept", b, "--note", "looked at the diff")
	if !strings.Contains(out, "done (accepted by a person; gate: passes on ") {
		t.Errorf("task accept: %q", out)
	}
	if got := s.Task(b); got.State != "done" {
		t.Errorf("accepted task is %s", got.State)
	}
	if hist := s.Must("task", "show", b); !strings.Contains(hist, "person") || !strings.Contains(hist, "accepted: looked at the diff") {
		t.Errorf("the history does not record a person's decision:\n%s", hist)
	}
	stillOnRecord("accept")

	if out := s.Must("task", "merge", a); !strings.Contains(out, "merged into main at "+head[:10]+" (fast-forward)") {
		t.Errorf("task merge: %q", out)
	}
	if got := strings.TrimSpace(rig.Git(t, repo, "rev-parse", "main")); got != head {
		t.Errorf("main is at %s after the merge, want %s", got, head)
	}
	stillOnRecord("merge")
	var merged taskWork
	s.MustJSON(&merged, "task", "show", a, "--json")
	if merged.Merged == nil || merged.Merged.Into != "main" || merged.Merged.Commit != head || merged.Merged.At.IsZero() {
		t.Errorf("task show --json after the merge: merged = %+v, want into main at %s, with its time", merged.Merged, head)
	}
	if out := s.Must("task", "show", a); !strings.Contains(out, "merged:   into main at ") {
		t.Errorf("task show does not say the task was merged:\n%s", out)
	}
	_, errOut, code := s.Run("task", "merge", b)
	if code != 1 || !strings.Contains(errOut, "conflicts in work.txt") || !strings.Contains(errOut, "nothing was changed") {
		t.Errorf("a conflicting merge: exit %d, %q", code, errOut)
	}
	if got := strings.TrimSpace(rig.Git(t, repo, "rev-parse", "main")); got != head {
		t.Errorf("a refused merge moved main to %s", got)
	}
	if st := rig.Git(t, repo, "status", "--porcelain"); st != "" {
		t.Errorf("a refused merge left files changed:\n%s", st)
	}
	stillOnRecord("a refused merge")
}
