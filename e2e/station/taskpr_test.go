//go:build linux

package station_test

import (
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
	"github.com/buildstation/buildstation/internal/testsupport/standin/ghapi"
)

// `task pr` on a done task of a project with a GitHub source pushes its
// branch and opens its pull request on the stand-in (real HTTP on
// loopback), printing its URL; asked again it prints the same one and
// opens none. A task not done, a project without a GitHub source and a
// merged task are each one sentence saying what to do.
func TestTaskPrOpensPullRequest(t *testing.T) {
	t.Parallel()
	gh := ghapi.New("acme", "web", "tok")
	t.Cleanup(gh.Close)
	bare, dir := originRepo(t)
	solo := rig.GitRepo(t)
	cfg := rig.ProjectTOML("web", dir, "60s", "60s", `remote = "origin"`) + rig.ProjectTOML("solo", solo, "60s", "60s") + githubSource(gh.APIURL())
	s := rig.StartOn(t, rig.WriteConfig(t, cfg), "BS_TEST_GH_TOKEN=tok")

	id := strings.TrimSpace(s.Must("task", "add", "--project", "web", "--title", "fix login", "--body", "script: commit work; complete fixed the login form"))
	stuck := strings.TrimSpace(s.Must("task", "add", "--project", "web", "--title", "flaky", "--body", "script: block the test needs a database"))
	other := strings.TrimSpace(s.Must("task", "add", "--project", "solo", "--title", "solo work", "--body", "script: commit work; complete solo done"))
	s.WaitState(id, "done", 60*time.Second)
	s.WaitState(stuck, "blocked", 60*time.Second)
	s.WaitState(other, "done", 60*time.Second)

	if _, errOut, code := s.Run("task", "pr", stuck); code == 0 || !strings.Contains(errOut, "task "+stuck+" is not done; open a pull request once it is") {
		t.Fatalf("task pr of a blocked task: exit %d, stderr %q", code, errOut)
	}
	if _, errOut, code := s.Run("task", "pr", other); code == 0 || !strings.Contains(errOut, "project solo has no GitHub source; add a [[sources]] table") {
		t.Fatalf("task pr without a GitHub source: exit %d, stderr %q", code, errOut)
	}
	if n := len(gh.Pulls()); n != 0 {
		t.Fatalf("%d pull requests before task pr", n)
	}

	url := strings.TrimSpace(s.Must("task", "pr", id))
	ps := gh.Pulls()
	if len(ps) != 1 {
		t.Fatalf("%d pull requests after task pr, want 1", len(ps))
	}
	branch := rig.TaskBranch(t, dir, id)
	if p := ps[0]; p.Head != branch || p.Base != "main" || p.Title != "fix login" || !strings.Contains(p.Body, "fixed the login form") || !strings.HasSuffix(url, "/pull/1") {
		t.Fatalf("task pr printed %q; pull request %+v", url, p)
	}
	if head := strings.TrimSpace(rig.Git(t, bare, "rev-parse", branch)); head != strings.TrimSpace(rig.Git(t, dir, "rev-parse", branch)) {
		t.Fatalf("the remote's %s is at %s, not the task's head", branch, head)
	}
	if again := strings.TrimSpace(s.Must("task", "pr", id)); again != url || len(gh.Pulls()) != 1 {
		t.Fatalf("task pr again printed %q (first %q), %d pull requests", again, url, len(gh.Pulls()))
	}

	s.Must("task", "merge", id)
	if _, errOut, code := s.Run("task", "pr", id); code == 0 || !strings.Contains(errOut, "task "+id+" was merged into main already") {
		t.Fatalf("task pr of a merged task: exit %d, stderr %q", code, errOut)
	}
}
