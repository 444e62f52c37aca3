//go:build linux

package station_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
	"github.com/buildstation/buildstation/internal/testsupport/standin/ghapi"
	"github.com/buildstation/buildstation/internal/testsupport/standin/linearapi"
)

// stateLabel is the state label the station set on a GitHub issue ("" for
// none): what the task shows, upstream.
func stateLabel(is ghapi.Issue) string {
	var got []string
	for _, l := range is.Labels {
		if l == "in progress" || l == "in review" || l == "blocked" {
			got = append(got, l)
		}
	}
	return strings.Join(got, ",")
}

// The board loop, closed (issue 39's "done when"), against a stand-in
// GitHub and a stand-in Linear over real HTTP, with the scripted agent in
// a real PTY: 250 issues, every list page answered 502 once; an unlabel
// and a close-and-reopen; a deleted Linear issue among live ones; a pull
// request that gets "changes requested" with two review comments and a
// failing check, the agent's second attempt pushing to the same pull
// request, the approval, the merge and the issue closed — and after each
// step the issue's labels or state are what the task shows.
func TestBoardLoopEndToEnd(t *testing.T) {
	t.Parallel()
	gh := ghapi.New("acme", "web", "tok")
	t.Cleanup(gh.Close)
	lin := linearapi.New("ENG", "lin_key")
	t.Cleanup(lin.Close)
	const loop, back, again = 7, 120, 240 // on the since-poll's pages 1, 2 and 3
	for k := 1; k <= 250; k++ {
		body := "script: complete nothing to do"
		switch k {
		case loop:
			body = "script: commit first try; complete fixed the login form\nscript-2: commit addressed the review; sleep 5s; complete addressed the review"
		case again:
			body = "script: commit reopened work; complete did the reopened work"
		}
		gh.AddIssue(fmt.Sprintf("issue %d", k), body, "bug")
	}
	// Every list page fails once (a 502) before its retry is answered.
	gh.SetFault(&ghapi.Fault{Status: 502, Message: "Server Error", Match: "/issues?", Alternate: true})
	var linIDs []string
	for k := 1; k <= 3; k++ {
		linIDs = append(linIDs, lin.AddIssue(fmt.Sprintf("linear %d", k), "script: commit linear work; complete linear work", "Todo", "bug"))
	}
	bare, dir := originRepo(t)
	_, apiDir := originRepo(t)
	gh.SetHeads(func(branch string) string {
		// What GitHub knows of the branch: the remote's head.
		out, err := exec.Command("git", "-C", bare, "rev-parse", "--verify", "--quiet", "refs/heads/"+branch).Output()
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(out))
	})
	cfg := rig.ProjectTOML("web", dir, "60s", "60s", `remote = "origin"`, "review_rounds = 2") +
		rig.ProjectTOML("api", apiDir, "60s", "60s", `remote = "origin"`) +
		githubSource(gh.APIURL()) + "poll = \"2s\"\n" +
		fmt.Sprintf("\n[[sources]]\nkind = \"linear\"\nproject = \"api\"\nteam = \"ENG\"\napi_url = %q\ntoken_env = \"BS_TEST_LINEAR_KEY\"\npoll = \"2s\"\n", lin.APIURL())
	s := rig.StartOn(t, rig.WriteConfig(t, cfg), "BS_TEST_GH_TOKEN=tok", "BS_TEST_LINEAR_KEY=lin_key")
	s.Must("project", "pause", "web", "--reason", "labelling")
	s.Must("project", "pause", "api", "--reason", "labelling")

	// Every issue is triaged at once, three of them for agents: the
	// since-poll reads 250 issues over three pages, each failing once.
	for k := 1; k <= 250; k++ {
		gh.Edit(k, func(is *ghapi.Issue) {
			is.Labels = append(is.Labels, "triaged")
			if k == loop || k == back || k == again {
				is.Labels = append(is.Labels, "agent")
			}
		})
	}
	for _, id := range linIDs {
		lin.Edit(id, time.Time{}, func(is *linearapi.Issue) { is.Labels = append(is.Labels, "agent") })
	}
	ids := s.Imported(6, 60*time.Second, "six tasks imported through the faults") // issue id → task id
	pages := 0
	for _, r := range gh.Requests() {
		if strings.Contains(r, "/issues?") && strings.Contains(r, "state=all") && strings.Contains(r, "page=3") {
			pages++
		}
	}
	if pages < 2 {
		t.Fatalf("the third page was asked %d times, want its 502 and its retry", pages)
	}
	tLoop, tBack, tAgain := ids["acme/web#7"], ids["acme/web#120"], ids["acme/web#240"]

	// Taken back: unlabelled, its queued task is cancelled; closed, the
	// same; reopened, queued again as a new attempt.
	gh.Edit(back, func(is *ghapi.Issue) {
		is.Labels = slices.DeleteFunc(is.Labels, func(l string) bool { return l == "agent" })
	})
	gh.Edit(again, func(is *ghapi.Issue) { is.State = "closed" })
	if tk := s.WaitState(tBack, "cancelled", 30*time.Second); !strings.Contains(tk.Reason, "acme/web#120 lost the label") {
		t.Fatalf("the unlabelled issue's task: %+v", tk)
	}
	if tk := s.WaitState(tAgain, "cancelled", 30*time.Second); !strings.Contains(tk.Reason, "acme/web#240 was closed upstream") {
		t.Fatalf("the closed issue's task: %+v", tk)
	}
	gh.Edit(again, func(is *ghapi.Issue) { is.State = "open" })
	if tk := s.WaitState(tAgain, "todo", 30*time.Second); tk.Attempt != 2 {
		t.Fatalf("the reopened issue's task: %+v, want attempt 2", tk)
	}
	for _, n := range []int{back, again} {
		if l := stateLabel(gh.Issue(n)); l != "" {
			t.Fatalf("issue #%d carries %q for a task that never ran", n, l)
		}
	}

	// A deleted Linear issue among live ones: its writes are dropped,
	// the others' land.
	lin.Delete(linIDs[1])
	s.Must("project", "resume", "api")
	for _, id := range []string{linIDs[0], linIDs[2]} {
		s.WaitState(ids[id], "done", 60*time.Second)
		rig.Eventually(t, 30*time.Second, func() error {
			is := lin.Issue(id)
			if is.State != "In Review" || len(is.Comments) == 0 || !strings.Contains(is.Comments[0].Body, "started "+ids[id]) {
				return fmt.Errorf("%s: state %q, comments %+v", id, is.State, is.Comments)
			}
			return nil
		}, "the live Linear issues written to", "station log:", s.Log)
	}
	rig.Eventually(t, 30*time.Second, func() error {
		tk := s.Task(ids[linIDs[1]])
		if !strings.Contains(strings.Join(tk.Notes, "\n"), "refused the") {
			return fmt.Errorf("the deleted issue's task: %s %q", tk.State, tk.Notes)
		}
		return nil
	}, "a note that the deleted issue's write was dropped", "station log:", s.Log)

	// The review loop.
	s.Must("project", "resume", "web")
	s.WaitState(tLoop, "done", 60*time.Second)
	branch := rig.TaskBranch(t, dir, tLoop)
	var pr ghapi.Pull
	rig.Eventually(t, 30*time.Second, func() error {
		for _, p := range gh.Pulls() {
			if p.Head == branch {
				pr = p
			}
		}
		if pr.Number == 0 || !strings.Contains(pr.Body, "Closes #7") {
			return fmt.Errorf("pulls %+v", gh.Pulls())
		}
		if l := stateLabel(gh.Issue(loop)); l != "in review" {
			return fmt.Errorf("label %q on a done task", l)
		}
		return nil
	}, "the pull request and in review", "station log:", s.Log)
	first := strings.TrimSpace(rig.Git(t, bare, "rev-parse", branch))
	// The round comes whole, as a review and its line comments do on
	// GitHub: the pull request answers 502 while it is written, so a poll
	// between two of its parts cannot send the task back with half of it.
	gh.SetFault(&ghapi.Fault{Status: 502, Message: "Server Error", Match: "/pulls/"})
	gh.AddReview(pr.Number, ghapi.Review{User: "alice", Association: "COLLABORATOR", State: "CHANGES_REQUESTED", Body: "please handle the empty password"})
	gh.AddReviewComment(pr.Number, ghapi.ReviewComment{User: "alice", Association: "COLLABORATOR", Path: "work.txt", Line: 1, Body: "say why here"})
	gh.AddReviewComment(pr.Number, ghapi.ReviewComment{User: "bob", Association: "MEMBER", Path: "work.txt", Line: 2, Body: "a typo here"})
	gh.AddCheckRun(first, ghapi.CheckRun{Name: "test", Conclusion: "failure", Log: "ok  web/a\n--- FAIL: TestEmptyPassword\n    login_test.go:31: got 500, want 400\nFAIL web/login\n"})
	gh.SetFault(&ghapi.Fault{Status: 502, Message: "Server Error", Match: "/issues?", Alternate: true})
	rig.Eventually(t, 60*time.Second, func() error {
		tk := s.Task(tLoop)
		if tk.Attempt != 2 || tk.State != "working" {
			return fmt.Errorf("task %s attempt %d", tk.State, tk.Attempt)
		}
		if l := stateLabel(gh.Issue(loop)); l != "in progress" {
			return fmt.Errorf("label %q on the working task", l)
		}
		return nil
	}, "the second attempt at work, and in progress upstream", "station log:", s.Log)
	// The board says working as the second attempt is taken, a moment
	// before its session writes its prompt.
	var prompt string
	rig.Eventually(t, 30*time.Second, func() error {
		b, err := os.ReadFile(filepath.Join(s.Home, "logs", tLoop+".2.prompt.md"))
		prompt = string(b)
		return err
	}, "the second attempt's prompt", "station log:", s.Log)
	for _, want := range []string{"please handle the empty password", "alice on work.txt:1", "say why here", "bob on work.txt:2", "a typo here",
		"check test failed", "--- FAIL: TestEmptyPassword", "got 500, want 400", "/pull/", "was reset to the last green commit"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the second attempt's prompt lacks %q:\n%s", want, prompt)
		}
	}
	s.WaitState(tLoop, "done", 60*time.Second)
	rig.Eventually(t, 30*time.Second, func() error {
		second := strings.TrimSpace(rig.Git(t, bare, "rev-parse", branch))
		if second == first || second != strings.TrimSpace(rig.Git(t, dir, "rev-parse", branch)) {
			return fmt.Errorf("the remote's %s is at %s (first run %s)", branch, second, first)
		}
		if l := stateLabel(gh.Issue(loop)); l != "in review" {
			return fmt.Errorf("label %q on the done task", l)
		}
		return nil
	}, "the second attempt pushed", "station log:", s.Log)
	n := 0
	for _, p := range gh.Pulls() {
		if p.Head == branch {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d pull requests for %s, want the one: %+v", n, branch, gh.Pulls())
	}

	gh.AddReview(pr.Number, ghapi.Review{User: "alice", Association: "COLLABORATOR", State: "APPROVED", Body: "thanks"})
	rig.Eventually(t, 30*time.Second, func() error {
		if out := s.Must("task", "show", tLoop); !strings.Contains(out, fmt.Sprintf("its pull request #%d was approved by alice", pr.Number)) {
			return fmt.Errorf("task show:\n%s", out)
		}
		return nil
	}, "the approval in the task's history", "station log:", s.Log)
	gh.Merge(pr.Number)
	rig.Eventually(t, 30*time.Second, func() error {
		is := gh.Issue(loop)
		if is.State != "closed" || stateLabel(is) != "" || !slices.ContainsFunc(is.Comments, func(c ghapi.Comment) bool { return strings.Contains(c.Body, "was merged") }) {
			return fmt.Errorf("issue #7: %s, labels %q, comments %d", is.State, is.Labels, len(is.Comments))
		}
		if out := s.Must("task", "show", tLoop); !strings.Contains(out, fmt.Sprintf("its pull request #%d was merged", pr.Number)) {
			return fmt.Errorf("task show:\n%s", out)
		}
		return nil
	}, "the merge closing the issue", "station log:", s.Log)
	is := gh.Issue(loop)
	done := 0
	for _, c := range is.Comments {
		if strings.Contains(c.Body, "finished "+tLoop) && strings.Contains(c.Body, "/pull/") {
			done++
		}
	}
	if done != 2 {
		t.Fatalf("%d done comments linking the pull request, want one per attempt: %+v", done, is.Comments)
	}
}
