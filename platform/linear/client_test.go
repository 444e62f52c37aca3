package linear

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/standin/linearapi"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
	"github.com/buildstation/buildstation/supervisor/source"
)

func newClient(t *testing.T, team, key string) (*linearapi.Server, *Client) {
	t.Helper()
	srv := linearapi.New("ENG", "lin_key")
	t.Cleanup(srv.Close)
	c, err := New(config.Source{Kind: "linear", Team: team, Label: "agent", State: "Todo", APIURL: srv.APIURL()}, key, nil)
	if err != nil {
		t.Fatal(err)
	}
	return srv, c
}

// The first poll takes the labelled issues in Todo; later ones only what
// changed since (updatedAt), closes included.
func TestPoll(t *testing.T) {
	ctx := context.Background()
	srv, c := newClient(t, "ENG", "lin_key")
	id := srv.AddIssue("fix login", "it fails", "Todo", "agent")
	srv.AddIssue("not ours", "", "Todo", "bug")
	srv.AddIssue("started", "", "In Progress", "agent")
	items, full, err := c.Poll(ctx)
	if err != nil || !full || len(items) != 1 || items[0].Ref.ID != id || !items[0].Matches || items[0].Body != "it fails" {
		t.Fatalf("Poll = %+v, %v, %v", items, full, err)
	}
	// The issues updated after the newest one imported come once more
	// (matching nothing), then an unchanged team returns nothing.
	c.Poll(ctx)
	if items, full, err := c.Poll(ctx); err != nil || full || len(items) != 0 {
		t.Fatalf("Poll of an unchanged team = %+v, %v, %v", items, full, err)
	}
	srv.Edit(id, time.Now().Add(time.Second), func(is *linearapi.Issue) { is.State = "Canceled" })
	items, _, err = c.Poll(ctx)
	if err != nil || len(items) != 1 || !items[0].Closed || items[0].Matches {
		t.Fatalf("Poll after a cancel = %+v, %v", items, err)
	}
}

// Writes land once: a replayed comment finds its marker.
func TestSend(t *testing.T) {
	ctx := context.Background()
	srv, c := newClient(t, "ENG", "lin_key")
	id := srv.AddIssue("fix login", "", "Todo", "agent")
	ref := supervisor.External{Kind: "linear", ID: id}
	w := source.Write{Key: "t1/1/start/comment", Kind: source.WriteComment, Ref: ref, Text: "started"}
	if _, err := c.Send(ctx, w); err != nil {
		t.Fatal(err)
	}
	w.Tried = true
	if _, err := c.Send(ctx, w); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Send(ctx, source.Write{Kind: source.WriteState, Ref: ref, State: source.StateInProgress}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := c.Send(ctx, source.Write{Kind: source.WriteAttach, Ref: ref, Target: "https://github.com/acme/web/pull/3", Text: "fix login"}); err != nil {
			t.Fatal(err)
		}
	}
	is := srv.Issue(id)
	if len(is.Comments) != 1 || !strings.HasPrefix(is.Comments[0].Body, "started") || is.State != "In Progress" || len(is.Attachments) != 1 {
		t.Fatalf("issue = %+v", is)
	}
	var ae *source.APIError
	if _, err := c.Send(ctx, source.Write{Kind: source.WriteState, Ref: ref, State: "Nope"}); !errors.As(err, &ae) || source.Retryable(err) {
		t.Fatalf("a state the team lacks: %v", err)
	}
}

// Activity is a state change or comment not made by the station.
func TestActivity(t *testing.T) {
	ctx := context.Background()
	srv, c := newClient(t, "ENG", "lin_key")
	id := srv.AddIssue("fix login", "", "Todo", "agent")
	ref := supervisor.External{Kind: "linear", ID: id}
	since := time.Now()
	c.Send(ctx, source.Write{Key: "k", Kind: source.WriteComment, Ref: ref, Text: "ours"})
	c.Send(ctx, source.Write{Kind: source.WriteState, Ref: ref, State: source.StateInProgress})
	if a, ok, err := c.Activity(ctx, ref, since); err != nil || ok {
		t.Fatalf("the station's own writes counted as life: %+v, %v", a, err)
	}
	srv.Edit(id, time.Now().Add(time.Second), func(is *linearapi.Issue) { is.State = "In Review" })
	if a, ok, err := c.Activity(ctx, ref, since); err != nil || !ok || a.Detail != "Linear "+id+" moved to In Review" {
		t.Fatalf("Activity = %+v, %v, %v", a, ok, err)
	}
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	var ae *source.APIError
	_, bad := newClient(t, "ENG", "expired")
	if _, _, err := bad.Poll(ctx); !errors.As(err, &ae) || ae.Status != http.StatusUnauthorized {
		t.Fatalf("bad key: %v", err)
	}
	_, none := newClient(t, "OPS", "lin_key")
	if _, _, err := none.Poll(ctx); !errors.As(err, &ae) || ae.Status != http.StatusNotFound {
		t.Fatalf("unknown team: %v", err)
	}
	srv, c := newClient(t, "ENG", "lin_key")
	reset := time.Now().Add(time.Minute).Truncate(time.Millisecond)
	srv.SetFault(&linearapi.Fault{Code: "RATELIMITED", Count: 1, Header: http.Header{"X-Ratelimit-Complexity-Reset": {strconv.FormatInt(reset.UnixMilli(), 10)}, "X-Ratelimit-Complexity-Remaining": {"0"}}})
	if _, _, err := c.Poll(ctx); !errors.As(err, &ae) || !ae.Limited || !ae.Reset.Equal(reset) {
		t.Fatalf("rate limited: %v", err)
	}
	srv.SetFault(&linearapi.Fault{Drop: true})
	if _, _, err := c.Poll(ctx); !errors.Is(err, supervisor.ErrUnreachable) {
		t.Fatalf("dropped: %v", err)
	}
}

// Activity counts only the team's members, never the station's own user
// (its comment without the marker too), nor someone outside the team
// (#33 item 12, #39 item 6).
func TestActivityOnlyFromTeamMembers(t *testing.T) {
	ctx := context.Background()
	srv, c := newClient(t, "ENG", "lin_key")
	id := srv.AddIssue("fix login", "", "Todo", "agent")
	ref := supervisor.External{Kind: "linear", ID: id}
	since := time.Now().Add(-time.Minute)
	srv.AddComment(id, "user-guest", "from outside the team")
	srv.AddComment(id, linearapi.Viewer, "the station's comment, its marker lost")
	if a, ok, err := c.Activity(ctx, ref, since); err != nil || ok {
		t.Fatalf("Activity = %+v, %v, %v; want none", a, ok, err)
	}
	srv.AddComment(id, "user-ana", "look at the session cookie")
	if a, ok, err := c.Activity(ctx, ref, since); err != nil || !ok || !strings.Contains(a.Detail, "comment") {
		t.Fatalf("Activity = %+v, %v, %v; want the member's comment", a, ok, err)
	}
	if cs, err := c.Comments(ctx, ref, since); err != nil || len(cs) != 1 || cs[0].Body != "look at the session cookie" {
		t.Fatalf("Comments = %+v, %v; want the member's alone", cs, err)
	}
}

// Every page is read, and a page that fails is asked again before the
// poll fails; a failed poll moves nothing on, so the next one sees every
// change (#39 item 1).
func TestPollEveryPage(t *testing.T) {
	ctx := context.Background()
	srv, c := newClient(t, "ENG", "lin_key")
	for i := range 250 {
		srv.AddIssue("issue "+strconv.Itoa(i), "", "Todo", "agent")
	}
	srv.SetFault(&linearapi.Fault{Op: "IssuesAfter", After: "99", Status: http.StatusInternalServerError, Code: "INTERNAL_SERVER_ERROR", Count: 4})
	if _, _, err := c.Poll(ctx); err == nil {
		t.Fatal("the first poll went through a page that failed three times")
	}
	items, full, err := c.Poll(ctx)
	if err != nil || !full || len(items) != 250 {
		t.Fatalf("second Poll = %d items, %v, %v; want all 250 (the failed page asked again)", len(items), full, err)
	}
}

// A team without a Blocked state: a blocked task's issue gets the label
// blocked instead, and the client says so once for `source ls` (#39
// item 4); before, the write was dropped and the issue showed In Progress.
func TestNoBlockedStateLabels(t *testing.T) {
	ctx := context.Background()
	srv, c := newClient(t, "ENG", "lin_key")
	srv.RemoveState("Blocked")
	id := srv.AddIssue("fix login", "", "In Progress", "agent")
	sent, err := c.Send(ctx, source.Write{Kind: source.WriteState, Ref: supervisor.External{Kind: "linear", ID: id}, State: source.StateBlocked})
	if err != nil || !strings.Contains(sent.Note, "Blocked") {
		t.Fatalf("Send(Blocked) = %+v, %v", sent, err)
	}
	if is := srv.Issue(id); !slices.Contains(is.Labels, "blocked") {
		t.Fatalf("labels %q, want blocked", is.Labels)
	}
	// A second blocked issue finds the label the first made.
	id2 := srv.AddIssue("other", "", "In Progress", "agent")
	if _, err := c.Send(ctx, source.Write{Kind: source.WriteState, Ref: supervisor.External{Kind: "linear", ID: id2}, State: source.StateBlocked}); err != nil || !slices.Contains(srv.Issue(id2).Labels, "blocked") {
		t.Fatalf("second: %v, labels %q", err, srv.Issue(id2).Labels)
	}
}

// A merged pull request moves its Linear issue to the team's completed
// state with a comment; a replay posts the comment once (#39: on merge).
func TestCloseMovesToCompleted(t *testing.T) {
	ctx := context.Background()
	srv, c := newClient(t, "ENG", "lin_key")
	id := srv.AddIssue("fix login", "", "In Review", "agent")
	w := source.Write{Key: "t1/close", Kind: source.WriteClose, Ref: supervisor.External{Kind: "linear", ID: id}, Text: "merged; done"}
	if _, err := c.Send(ctx, w); err != nil {
		t.Fatal(err)
	}
	w.Tried = true
	if _, err := c.Send(ctx, w); err != nil {
		t.Fatal(err)
	}
	is := srv.Issue(id)
	if is.State != "Done" || len(is.Comments) != 1 || !strings.Contains(is.Comments[0].Body, "merged; done") {
		t.Fatalf("after the close: state %q, comments %+v", is.State, is.Comments)
	}
}
