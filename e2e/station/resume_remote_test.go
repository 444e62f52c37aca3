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

// Two stations of one shared board, each with its own clone of the team's
// repository (a bare one here), as two machines have.

// teamRepo makes a bare repository with one commit on main and two clones
// of it, the project folders of stations A and B.
func teamRepo(t *testing.T) (bare, a, b string) {
	t.Helper()
	seed := rig.GitRepo(t)
	bare = filepath.Join(t.TempDir(), "team.git")
	rig.Git(t, seed, "clone", "-q", "--bare", seed, bare)
	clone := func() string {
		dir := filepath.Join(t.TempDir(), "clone")
		rig.Git(t, filepath.Dir(dir), "clone", "-q", bare, dir)
		return dir
	}
	return bare, clone(), clone()
}

// remoteGate passes while the work file holds good work and nothing bad.
const remoteGate = `gate = "grep -q good work.txt && ! grep -q bad work.txt"`

// teamConfig is sharedConfig (one session per station, two on "web"),
// plus a project each station runs alone, to keep it busy on cue.
func teamConfig(t *testing.T, db, dir string, extra ...string) string {
	folder := t.TempDir()
	return sharedConfig(db, dir, 1, 2) + strings.Join(extra, "\n") + "\n" +
		rig.ProjectTOML("a-only", folder, "60s", "60s", `stations = ["A"]`) +
		rig.ProjectTOML("b-only", folder, "60s", "60s", `stations = ["B"]`)
}

// A task blocked on A and requeued there is taken up by B from the last
// green commit, which A pushed to the remote: B's worktree starts at it
// and its prompt says so.
func TestRequeuedTaskResumesOnAnotherStation(t *testing.T) {
	t.Parallel()
	db := sharedDB(t)
	bare, dirA, dirB := teamRepo(t)
	a := startShared(t, "A", teamConfig(t, db, dirA, remoteGate))
	id := strings.TrimSpace(a.Must("task", "add", "--project", "web", "--title", "feature", "--body",
		"script: commit good work; commit bad work; block stuck on the bad one\nscript-2: print resumed; commit more work; complete resumed"))
	a.WaitState(id, "blocked", 30*time.Second)
	branch := rig.TaskBranch(t, dirA, id)
	good := strings.TrimSpace(rig.Git(t, dirA, "rev-parse", branch+"^"))
	bad := strings.TrimSpace(rig.Git(t, dirA, "rev-parse", branch))

	// A is busy with another task when the requeue lets this one go.
	busy := a.AddTask("a-only", "busy", "sleep 30s; complete busy")
	a.WaitState(busy, "working", 15*time.Second)
	a.Must("task", "requeue", id)
	if got := strings.TrimSpace(rig.Git(t, bare, "for-each-ref", "--format=%(objectname)", "refs/heads/"+branch)); got != good {
		t.Errorf("the remote's %s is at %q after the requeue, want the green %s", branch, got, good)
	}

	b := startShared(t, "B", teamConfig(t, db, dirB, remoteGate))
	got := b.WaitState(id, "done", 60*time.Second)
	if who := claimedBy(got); who != "B" {
		t.Fatalf("attempt 2 was claimed by %q, want B", who)
	}
	// B's work sits on A's green commit, not on the branch's base.
	if parent := strings.TrimSpace(rig.Git(t, dirB, "rev-parse", branch+"^")); parent != good {
		t.Fatalf("B's commit sits on %s, want A's green %s", parent, good)
	}
	if got := strings.TrimSpace(rig.Git(t, dirB, "rev-parse", branch+"-attempt-1")); got != bad {
		t.Fatalf("A's save is at %s on B, want %s", got, bad)
	}
	prompt := readFile(t, filepath.Join(b.Home, "logs", id+".2.prompt.md"))
	for _, want := range []string{
		"reset to the last green commit " + good[:10],
		"This attempt runs on station B, which fetched the task's branch from the remote origin: your worktree starts at the last green commit " + good[:10],
	} {
		if !strings.Contains(prompt, want) {
			t.Errorf("B's prompt lacks %q:\n%s", want, prompt)
		}
	}
	// B pushes its work when its session ends.
	rig.Eventually(t, 30*time.Second, func() error {
		if head := strings.TrimSpace(rig.Git(t, bare, "rev-parse", branch)); head != strings.TrimSpace(rig.Git(t, dirB, "rev-parse", branch)) {
			return fmt.Errorf("the remote's %s is at %s", branch, head)
		}
		return nil
	}, "B's work pushed")
	// Only the task's branches went to the remote.
	for _, ref := range strings.Fields(rig.Git(t, bare, "for-each-ref", "--format=%(refname)")) {
		if ref != "refs/heads/main" && !strings.HasPrefix(ref, "refs/heads/bs/") {
			t.Errorf("the station pushed %s", ref)
		}
	}
}

// Without a remote the requeued task is pinned to the station that holds
// its worktree: an idle B leaves it, a requeue at B is refused saying
// where it can run, and A takes it up once free.
func TestPinnedTaskWaitsForItsStation(t *testing.T) {
	t.Parallel()
	db := sharedDB(t)
	a := startShared(t, "A", teamConfig(t, db, rig.GitRepo(t)))
	b := startShared(t, "B", teamConfig(t, db, rig.GitRepo(t)))
	busyB := b.AddTask("b-only", "b busy", "sleep 10s; complete busy")
	b.WaitState(busyB, "working", 15*time.Second)
	id := strings.TrimSpace(a.Must("task", "add", "--project", "web", "--title", "feature", "--body",
		"script: commit work; block stuck\nscript-2: complete done"))
	if who := claimedBy(a.WaitState(id, "blocked", 30*time.Second)); who != "A" {
		t.Fatalf("attempt 1 ran on %q, want A", who)
	}
	busyA := a.AddTask("a-only", "a busy", "sleep 25s; complete busy")
	a.WaitState(busyA, "working", 15*time.Second)
	b.WaitState(busyB, "done", 30*time.Second) // B is idle now, A busy

	_, stderr, code := b.Run("task", "requeue", id)
	if code == 0 || !strings.Contains(stderr, "is pinned to station A: its work is only there") {
		t.Fatalf("requeue at B: exit %d, %q; want refused", code, stderr)
	}
	a.Must("task", "requeue", id)
	// B is idle and sees the task, and leaves it to A.
	for range 3 {
		if out := b.Must("task", "show", id); !strings.Contains(out, "state:    todo") || !strings.Contains(out, "pinned:   pinned to station A: its work is only there") {
			t.Fatalf("task show at B while A is busy:\n%s", out)
		}
		time.Sleep(time.Second)
	}
	got := a.WaitState(id, "done", 60*time.Second)
	if who := claimedBy(got); who != "A" {
		t.Fatalf("the pinned task was claimed by %q, want A", who)
	}
	if !strings.Contains(a.Transcript(id, 2), "done") {
		t.Fatal("attempt 2 did not run at A")
	}
}
