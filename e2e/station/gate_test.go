//go:build linux

package station_test

import (
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
