package github

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/standin/ghapi"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/source"
)

// A pull request's feedback: the checks its base branch requires that
// failed, with their job's log's end (read through the log's redirect),
// not a failed check it does not require; reviews and review comments by
// people who can act on the repository, not the public's. Asked again
// untouched, it costs no rate limit (304s) and no log is read again; a
// new review is seen at once.
func TestPullFeedback(t *testing.T) {
	ctx := context.Background()
	srv, c := newClient(t, "tok")
	n := srv.AddIssue("fix login", "", "agent")
	head := "abababababababababababababababababababab"
	srv.SetHeads(func(string) string { return head })
	sent, err := c.Send(ctx, source.Write{Key: "t1/pr", Kind: source.WritePR, Ref: supervisor.External{Kind: "github", ID: source.GitHubID("acme/web", n)},
		PR: &source.PullRequest{Head: "bs/x/t1", Title: "fix login", Body: "Closes #1"}})
	if err != nil {
		t.Fatal(err)
	}
	srv.Require("main", "test")
	srv.AddCheckRun(head, ghapi.CheckRun{Name: "lint", Conclusion: "failure", Log: "lint says no\n"})
	srv.AddCheckRun(head, ghapi.CheckRun{Name: "test", Conclusion: "failure", Log: strings.Repeat("noise\n", 100) + "--- FAIL: TestLogin\n"})
	srv.AddCheckRun(head, ghapi.CheckRun{Name: "build", Conclusion: "success"})
	pr := 2
	srv.AddReviewComment(pr, ghapi.ReviewComment{User: "passer-by", Association: "NONE", Path: "a.go", Line: 1, Body: "nope"})
	srv.AddReviewComment(pr, ghapi.ReviewComment{User: "octo", Association: "OWNER", Path: "a.go", Line: 2, Body: "name this better"})
	p, err := c.Pull(ctx, sent.URL, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var what []string
	for _, f := range p.Feedback {
		what = append(what, f.What)
	}
	if got := strings.Join(what, "|"); got != "octo on a.go:2|check test failed" && got != "check test failed|octo on a.go:2" {
		t.Fatalf("feedback %q, want the owner's comment and the required check", got)
	}
	for _, f := range p.Feedback {
		if f.What == "check test failed" && (!strings.Contains(f.Text, "--- FAIL: TestLogin") || strings.Count(f.Text, "noise") > 40) {
			t.Fatalf("the check's text is not its log's end: %q", f.Text)
		}
	}
	left, logs := srv.Remaining(), countLogs(srv.Requests())
	if p2, err := c.Pull(ctx, sent.URL, time.Time{}); err != nil || len(p2.Feedback) != len(p.Feedback) {
		t.Fatalf("asked again: %+v, %v", p2, err)
	}
	if srv.Remaining() != left || countLogs(srv.Requests()) != logs {
		t.Fatalf("an untouched pull request used %d of the rate limit and read %d logs again", left-srv.Remaining(), countLogs(srv.Requests())-logs)
	}
	srv.AddReview(pr, ghapi.Review{User: "octo", Association: "OWNER", State: "APPROVED"})
	if p3, err := c.Pull(ctx, sent.URL, time.Time{}); err != nil || p3.Approved != "octo" {
		t.Fatalf("after an approval: %+v, %v", p3, err)
	}
}

func countLogs(reqs []string) int {
	n := 0
	for _, r := range reqs {
		if strings.Contains(r, "/logs") {
			n++
		}
	}
	return n
}
