//go:build linux

package station_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
	"github.com/buildstation/buildstation/internal/testsupport/standin/ghapi"
	"github.com/buildstation/buildstation/internal/testsupport/standin/linearapi"
)

// originRepo is a project folder cloned from a bare repository (its
// origin), where task branches are pushed.
func originRepo(t *testing.T) (bare, dir string) {
	t.Helper()
	seed := rig.GitRepo(t)
	bare = filepath.Join(t.TempDir(), "web.git")
	rig.Git(t, seed, "clone", "-q", "--bare", seed, bare)
	dir = filepath.Join(t.TempDir(), "web")
	rig.Git(t, filepath.Dir(dir), "clone", "-q", bare, dir)
	return bare, dir
}

func githubSource(apiURL string) string {
	return fmt.Sprintf("\n[[sources]]\nkind = \"github\"\nproject = \"web\"\nrepo = \"acme/web\"\napi_url = %q\ntoken_env = \"BS_TEST_GH_TOKEN\"\n", apiURL)
}

// An issue labelled agent becomes a task; the agent commits and completes;
// the branch is pushed to the remote and a pull request opened with the
// agent's summary; the issue gets its comments and state labels. A
// blocked task writes its reason back.
func TestGitHubIssueToPullRequest(t *testing.T) {
	t.Parallel()
	gh := ghapi.New("acme", "web", "tok")
	t.Cleanup(gh.Close)
	done := gh.AddIssue("fix login", "script: commit work; complete fixed the login form", "agent")
	blocked := gh.AddIssue("flaky test", "script: block the test needs a database this machine lacks", "agent")
	gh.AddIssue("not for agents", "script: complete nope", "bug")
	bare, dir := originRepo(t)
	cfg := rig.ProjectTOML("web", dir, "60s", "60s", `remote = "origin"`) + githubSource(gh.APIURL())
	s := rig.StartOn(t, rig.WriteConfig(t, cfg), "BS_TEST_GH_TOKEN=tok")

	task := s.WaitState("t1", "done", 60*time.Second)
	if task.Title != "fix login" {
		t.Fatalf("t1 = %+v, want the issue's task", task)
	}
	var shown struct {
		External struct{ Kind, ID, URL string } `json:"external"`
	}
	s.MustJSON(&shown, "task", "show", "t1", "--json")
	if shown.External.Kind != "github" || shown.External.ID != "acme/web#1" || shown.External.URL != "https://github.com/acme/web/issues/1" {
		t.Fatalf("task show --json external = %+v", shown.External)
	}
	if out := s.Must("task", "show", "t1"); !strings.Contains(out, "issue:    acme/web#1 https://github.com/acme/web/issues/1") {
		t.Fatalf("task show lacks the issue:\n%s", out)
	}
	branch := rig.TaskBranch(t, dir, "t1")
	rig.Eventually(t, 30*time.Second, func() error {
		ps := gh.Pulls()
		if len(ps) != 1 {
			return fmt.Errorf("%d pull requests", len(ps))
		}
		if p := ps[0]; p.Head != branch || p.Base != "main" || !strings.Contains(p.Body, "fixed the login form") || !strings.Contains(p.Body, fmt.Sprintf("Closes #%d", done)) {
			return fmt.Errorf("pull request %+v", p)
		}
		return nil
	}, "the pull request", "station log:", s.Log)
	if head := strings.TrimSpace(rig.Git(t, bare, "rev-parse", branch)); head != strings.TrimSpace(rig.Git(t, dir, "rev-parse", branch)) {
		t.Fatalf("the remote's %s is at %s, not the task's head", branch, head)
	}
	is := gh.Issue(done)
	// The start's comment; the done comment linking the pull request may follow.
	if len(is.Comments) == 0 || !strings.Contains(is.Comments[0].Body, "branch `"+branch+"`") || !strings.Contains(is.Comments[0].Body, "started t1") {
		t.Fatalf("issue comments = %+v", is.Comments)
	}
	rig.Eventually(t, 10*time.Second, func() error {
		if ls := strings.Join(gh.Issue(done).Labels, ","); ls != "agent,in review" {
			return fmt.Errorf("labels %q", ls)
		}
		return nil
	}, "the in review label")

	s.WaitState("t2", "blocked", 60*time.Second)
	rig.Eventually(t, 30*time.Second, func() error {
		is := gh.Issue(blocked)
		if len(is.Comments) != 2 || !strings.Contains(is.Comments[1].Body, "the test needs a database this machine lacks") {
			return fmt.Errorf("comments %+v", is.Comments)
		}
		if ls := strings.Join(is.Labels, ","); ls != "agent,blocked" {
			return fmt.Errorf("labels %q", ls)
		}
		return nil
	}, "the block written back", "station log:", s.Log)
	if tasks := s.Must("task", "ls"); strings.Contains(tasks, "not for agents") {
		t.Fatalf("an issue without the label was imported:\n%s", tasks)
	}
	var ls []struct {
		Name, Problem string
		OK            bool
		Tasks         int
	}
	s.MustJSON(&ls, "source", "ls", "--json")
	if len(ls) != 1 || !ls[0].OK || ls[0].Name != "github acme/web" || ls[0].Problem != "" {
		t.Fatalf("source ls = %+v", ls)
	}
}

// A token GitHub refuses is one sentence in status and source ls; the
// station runs on.
func TestSourceRefusedTokenShowsInStatus(t *testing.T) {
	t.Parallel()
	gh := ghapi.New("acme", "web", "tok")
	t.Cleanup(gh.Close)
	gh.AddIssue("fix login", "script: complete ok", "agent")
	cfg := rig.ProjectTOML("web", t.TempDir(), "60s", "60s") + githubSource(gh.APIURL())
	s := rig.StartOn(t, rig.WriteConfig(t, cfg), "BS_TEST_GH_TOKEN=expired")
	want := "github acme/web refused the token (401: expired or revoked): put a new one in the variable BS_TEST_GH_TOKEN (token_env) and restart the station"
	rig.Eventually(t, 15*time.Second, func() error {
		if out := s.Must("status"); !strings.Contains(out, "source: "+want) {
			return fmt.Errorf("status:\n%s", out)
		}
		return nil
	}, "the 401 in status")
	if out := s.Must("source", "ls"); !strings.Contains(out, want) {
		t.Fatalf("source ls:\n%s", out)
	}
}

// The board layer of evidence: of two silent agents, the one whose Linear
// issue moved is left alone (quiet, the move named), the other is nudged.
func TestLinearIssueMovingIsLife(t *testing.T) {
	t.Parallel()
	lin := linearapi.New("ENG", "lin_key")
	t.Cleanup(lin.Close)
	moving := lin.AddIssue("moving", "script: sleep 60s", "Todo", "agent")
	lin.AddIssue("still", "script: sleep 60s", "Todo", "agent")
	cfg := rig.ProjectTOML("web", t.TempDir(), "4s", "60s", "concurrency = 2") +
		fmt.Sprintf("\n[[sources]]\nkind = \"linear\"\nproject = \"web\"\nteam = \"ENG\"\napi_url = %q\ntoken_env = \"BS_TEST_LINEAR_KEY\"\n", lin.APIURL())
	s := rig.StartOn(t, rig.WriteConfig(t, cfg), "BS_TEST_LINEAR_KEY=lin_key")
	ids := s.Imported(2, 20*time.Second, "both issues imported") // issue id → task id
	s.WaitSession(ids[moving], 20*time.Second, nil)
	// Someone (the agent, through Linear) moves its issue on.
	lin.Edit(moving, time.Time{}, func(is *linearapi.Issue) { is.State = "In Review" })
	still := ids["ENG-2"]
	s.WaitSession(still, 30*time.Second, func(ss rig.Session) bool { return ss.State == "nudged" })
	ss := s.WaitSession(ids[moving], 10*time.Second, func(ss rig.Session) bool { return ss.State == "quiet" })
	if !strings.Contains(ss.Why, "board: Linear "+moving+" moved to In Review") {
		t.Fatalf("the quiet session's why = %q", ss.Why)
	}
	if ss.NudgedAt != nil {
		t.Fatalf("the session whose issue moved was nudged: %+v", ss)
	}
}
