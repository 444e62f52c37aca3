package github

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/standin/ghapi"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
	"github.com/buildstation/buildstation/supervisor/source"
)

func newClient(t *testing.T, token string) (*ghapi.Server, *Client) {
	t.Helper()
	srv := ghapi.New("acme", "web", "tok")
	t.Cleanup(srv.Close)
	c, err := New(config.Source{Kind: "github", Repo: "acme/web", Label: "agent", APIURL: srv.APIURL()}, token, nil)
	if err != nil {
		t.Fatal(err)
	}
	return srv, c
}

// Poll lists the labelled open issues; an unchanged list is a 304 that
// uses none of the rate limit.
func TestPollConditional(t *testing.T) {
	ctx := context.Background()
	srv, c := newClient(t, "tok")
	srv.AddIssue("fix login", "it fails", "agent")
	srv.AddIssue("not for agents", "", "bug")
	items, full, err := c.Poll(ctx)
	if err != nil || !full || len(items) != 1 || items[0].Ref.ID != "acme/web#1" || !items[0].Matches || items[0].Title != "fix login" {
		t.Fatalf("Poll = %+v, %v, %v", items, full, err)
	}
	// The next poll asks for what changed since the newest issue seen
	// (inclusive): the same issues, once; then that question is a 304.
	if items, full, err := c.Poll(ctx); err != nil || full || len(items) != 2 {
		t.Fatalf("second Poll = %+v, %v, %v; want every issue updated since, all states and labels", items, full, err)
	}
	left := srv.Remaining()
	items, full, err = c.Poll(ctx)
	if err != nil || full || len(items) != 0 {
		t.Fatalf("third Poll = %+v, %v, %v; want a 304's nothing", items, full, err)
	}
	if srv.Remaining() != left {
		t.Fatalf("a 304 used the rate limit: %d → %d", left, srv.Remaining())
	}
	srv.Edit(1, func(is *ghapi.Issue) { is.Title = "fix the login" })
	items, _, _ = c.Poll(ctx)
	if i := slices.IndexFunc(items, func(it source.Item) bool { return it.Ref.ID == "acme/web#1" }); i < 0 || items[i].Title != "fix the login" {
		t.Fatalf("Poll after an edit = %+v", items)
	}
}

// A comment replayed after a send that may have landed is not posted
// twice; a pull request goes to the default branch, once.
func TestSendOnce(t *testing.T) {
	ctx := context.Background()
	srv, c := newClient(t, "tok")
	n := srv.AddIssue("fix login", "", "agent")
	ref := supervisor.External{Kind: "github", ID: source.GitHubID("acme/web", n)}
	w := source.Write{Key: "t1/1/start/comment", Kind: source.WriteComment, Ref: ref, Text: "started"}
	if _, err := c.Send(ctx, w); err != nil {
		t.Fatal(err)
	}
	w.Tried = true
	if _, err := c.Send(ctx, w); err != nil {
		t.Fatal(err)
	}
	if cs := srv.Issue(n).Comments; len(cs) != 1 || !strings.HasPrefix(cs[0].Body, "started") {
		t.Fatalf("comments = %+v, want one", cs)
	}
	for _, st := range []string{source.StateInProgress, source.StateBlocked} {
		if _, err := c.Send(ctx, source.Write{Kind: source.WriteState, Ref: ref, State: st}); err != nil {
			t.Fatal(err)
		}
	}
	if ls := srv.Issue(n).Labels; strings.Join(ls, ",") != "agent,blocked" {
		t.Fatalf("labels = %q", ls)
	}
	srv.SetDefaultBranch("trunk")
	pr := source.Write{Key: "t1/pr", Kind: source.WritePR, Ref: ref, PR: &source.PullRequest{Head: "bs/x/t1", Title: "fix login", Body: "Closes #1"}}
	s1, err := c.Send(ctx, pr)
	if err != nil {
		t.Fatal(err)
	}
	pr.Tried = false // a replay that does not know it landed: the 422 finds it
	s2, err := c.Send(ctx, pr)
	if err != nil || s1.URL != s2.URL {
		t.Fatalf("second PR = %+v, %v; want %+v", s2, err, s1)
	}
	if ps := srv.Pulls(); len(ps) != 1 || ps[0].Base != "trunk" || ps[0].Head != "bs/x/t1" {
		t.Fatalf("pulls = %+v", ps)
	}
}

// Refusals come back as *source.APIError with their status, a rate limit
// with its reset, a dropped connection as unreachable.
func TestErrors(t *testing.T) {
	ctx := context.Background()
	srv, bad := newClient(t, "expired")
	var ae *source.APIError
	if _, _, err := bad.Poll(ctx); !errors.As(err, &ae) || ae.Status != http.StatusUnauthorized {
		t.Fatalf("bad token: %v", err)
	}
	if _, _, err := bad.Poll(ctx); !errors.As(err, &ae) || ae.Status != http.StatusUnauthorized {
		t.Fatalf("bad token again: %v", err)
	}
	srv.Close()
	srv, c := newClient(t, "tok")
	srv2, c2 := newClient(t, "tok")
	reset := time.Now().Add(90 * time.Second).Truncate(time.Second)
	srv2.SetFault(&ghapi.Fault{Status: 403, Message: "API rate limit exceeded", Count: 1,
		Header: http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {strconv.FormatInt(reset.Unix(), 10)}}})
	if _, _, err := c2.Poll(ctx); !errors.As(err, &ae) || !ae.Limited || !ae.Reset.Equal(reset) {
		t.Fatalf("rate limited: %v (%+v)", err, ae)
	}
	// go-github itself then makes no request before the reset.
	before := len(srv2.Requests())
	if _, _, err := c2.Poll(ctx); !errors.As(err, &ae) || !ae.Limited || len(srv2.Requests()) != before {
		t.Fatalf("a poll before the reset: %v, %d requests made", err, len(srv2.Requests())-before)
	}
	srv.SetFault(&ghapi.Fault{Status: 403, Message: "Resource not accessible by personal access token", Count: 1})
	if _, err := c.Item(ctx, supervisor.External{ID: "acme/web#1"}); !errors.As(err, &ae) || ae.Status != 403 || ae.Limited {
		t.Fatalf("scope: %v", err)
	}
	srv.SetFault(&ghapi.Fault{Drop: true})
	if _, _, err := c.Poll(ctx); !errors.Is(err, supervisor.ErrUnreachable) {
		t.Fatalf("dropped connection: %v", err)
	}
	srv.SetFault(nil)
	if _, err := c.Item(ctx, supervisor.External{ID: "acme/web#9"}); !errors.As(err, &ae) || ae.Status != 404 {
		t.Fatalf("no such issue: %v", err)
	}
}

// Activity counts only people who can act on the issue: an owner, a
// member or a collaborator, not a bot, not the public, and not the
// station's own account even without its marker (#33 item 12, #39 item 6).
func TestActivityOnlyFromPeopleWhoCanAct(t *testing.T) {
	ctx := context.Background()
	srv, c := newClient(t, "tok")
	n := srv.AddIssue("fix login", "", "agent")
	ref := supervisor.External{Kind: "github", ID: source.GitHubID("acme/web", n)}
	since := time.Now().Add(-time.Minute)
	srv.Comment(n, "passer-by", "NONE", "+1 me too")
	srv.Comment(n, "first-timer", "FIRST_TIME_CONTRIBUTOR", "any news?")
	srv.Comment(n, ghapi.Login, "MEMBER", "a station comment whose marker was lost")
	srv.Edit(n, func(is *ghapi.Issue) {
		is.Comments = append(is.Comments, ghapi.Comment{ID: 1999, Body: "deploy preview ready", CreatedAt: time.Now().UTC(), User: "ci[bot]", Association: "MEMBER", Bot: true})
	})
	if a, ok, err := c.Activity(ctx, ref, since); err != nil || ok {
		t.Fatalf("Activity = %+v, %v, %v; want none from people who cannot act", a, ok, err)
	}
	srv.Comment(n, "octo", "COLLABORATOR", "try the other endpoint")
	if a, ok, err := c.Activity(ctx, ref, since); err != nil || !ok || !strings.Contains(a.Detail, "comment") {
		t.Fatalf("Activity = %+v, %v, %v; want the collaborator's comment", a, ok, err)
	}
}

// A deleted issue (410) or one the repository no longer has (404 while
// the repository answers) refuses that write alone (#39 item 3); a
// repository that is gone is the source's problem.
func TestEntityLevelRefusals(t *testing.T) {
	ctx := context.Background()
	srv, c := newClient(t, "tok")
	n := srv.AddIssue("fix login", "", "agent")
	srv.Delete(n)
	_, err := c.Send(ctx, source.Write{Key: "k", Kind: source.WriteComment, Ref: supervisor.External{Kind: "github", ID: source.GitHubID("acme/web", n)}, Text: "x"})
	if !source.EntityLevel(err) {
		t.Fatalf("a deleted issue's write: %v, want refused for the issue alone", err)
	}
	_, err = c.Send(ctx, source.Write{Key: "k2", Kind: source.WriteComment, Ref: supervisor.External{Kind: "github", ID: source.GitHubID("acme/web", 99)}, Text: "x"})
	if !source.EntityLevel(err) {
		t.Fatalf("a missing issue's write: %v, want refused for the issue alone", err)
	}
	other, err := New(config.Source{Kind: "github", Repo: "acme/gone", Label: "agent", APIURL: srv.APIURL()}, "tok", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = other.Send(ctx, source.Write{Key: "k3", Kind: source.WriteComment, Ref: supervisor.External{Kind: "github", ID: "acme/gone#1"}, Text: "x"})
	if err == nil || source.EntityLevel(err) {
		t.Fatalf("a missing repository's write: %v, want the source's problem", err)
	}
}
