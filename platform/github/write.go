package github

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	gh "github.com/google/go-github/v75/github"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/source"
)

// Send performs one write-back. Each is safe to replay: a comment carries
// the write's marker and is not posted again when a replay finds it; a
// label is added at most once; a pull request that exists already for the
// branch is found and not opened again.
func (c *Client) Send(ctx context.Context, w source.Write) (source.Sent, error) {
	sent, err := c.send(ctx, w)
	return sent, c.entity(ctx, err)
}

// entity marks a 404 as the one issue's (deleted, transferred) when the
// repository answers: then only that write is dropped, not every write
// of the source. A 410 (an issue deleted) is the issue's already.
func (c *Client) entity(ctx context.Context, err error) error {
	var ae *source.APIError
	if !errors.As(err, &ae) || ae.Status != http.StatusNotFound {
		return err
	}
	if _, _, rerr := c.gh.Repositories.Get(ctx, c.owner, c.repo); rerr == nil {
		ae.Entity = true
	}
	return err
}

func (c *Client) send(ctx context.Context, w source.Write) (source.Sent, error) {
	// A pull request and its notes may be for a Linear issue; the rest
	// are written on the issue itself.
	n, ok := source.GitHubNumber(w.Ref.ID)
	if !ok && (w.Kind == source.WriteComment || w.Kind == source.WriteState || w.Kind == source.WriteClose) {
		return source.Sent{}, &source.APIError{Status: http.StatusUnprocessableEntity, Msg: fmt.Sprintf("%q is not a GitHub issue", w.Ref.ID)}
	}
	switch w.Kind {
	case source.WriteComment:
		return c.comment(ctx, n, w)
	case source.WritePRNote:
		pr, err := strconv.Atoi(path.Base(w.Target))
		if err != nil {
			return source.Sent{}, fmt.Errorf("%q is not a pull request's URL", w.Target)
		}
		return c.comment(ctx, pr, w)
	case source.WriteState:
		return source.Sent{}, c.label(ctx, n, w.State)
	case source.WritePR:
		return c.pull(ctx, w)
	case source.WriteClose:
		return c.closeIssue(ctx, n, w)
	}
	return source.Sent{}, &source.APIError{Status: http.StatusUnprocessableEntity, Msg: fmt.Sprintf("GitHub takes no %s write", w.Kind)}
}

// comment posts w.Text with w's marker on issue (or pull request) n,
// unless a replay finds it there already.
func (c *Client) comment(ctx context.Context, n int, w source.Write) (source.Sent, error) {
	mark := source.Marker(w.Key)
	if w.Tried {
		cs, _, err := c.gh.Issues.ListComments(ctx, c.owner, c.repo, n, &gh.IssueListCommentsOptions{ListOptions: gh.ListOptions{PerPage: 100}})
		if err != nil {
			return source.Sent{}, apiError(err)
		}
		for _, cm := range cs {
			if strings.Contains(cm.GetBody(), mark) {
				return source.Sent{URL: cm.GetHTMLURL()}, nil
			}
		}
	}
	cm, _, err := c.gh.Issues.CreateComment(ctx, c.owner, c.repo, n, &gh.IssueComment{Body: gh.Ptr(w.Text + "\n\n" + mark)})
	if err != nil {
		return source.Sent{}, apiError(err)
	}
	return source.Sent{URL: cm.GetHTMLURL()}, nil
}

// label sets the label of state on issue n and drops the other state
// labels the station sets.
func (c *Client) label(ctx context.Context, n int, state string) error {
	want, ok := stateLabels[state]
	if !ok {
		return &source.APIError{Status: http.StatusUnprocessableEntity, Msg: "no label for state " + state}
	}
	is, _, err := c.gh.Issues.Get(ctx, c.owner, c.repo, n)
	if err != nil {
		return apiError(err)
	}
	has := map[string]bool{}
	for _, l := range is.Labels {
		has[l.GetName()] = true
	}
	for _, other := range stateLabels {
		if other != want && has[other] {
			if _, err := c.gh.Issues.RemoveLabelForIssue(ctx, c.owner, c.repo, n, other); err != nil && status(err) != http.StatusNotFound {
				return apiError(err)
			}
		}
	}
	if has[want] {
		return nil
	}
	if _, _, err := c.gh.Issues.AddLabelsToIssue(ctx, c.owner, c.repo, n, []string{want}); err != nil {
		return apiError(err)
	}
	return nil
}

// pull opens the task's pull request against the repository's default
// branch (or w.PR.Base); one that exists already for the branch is
// returned instead.
func (c *Client) pull(ctx context.Context, w source.Write) (source.Sent, error) {
	if w.Tried {
		if s, ok, err := c.findPull(ctx, w.PR.Head); err != nil || ok {
			return s, err
		}
	}
	base := w.PR.Base
	if base == "" {
		repo, _, err := c.gh.Repositories.Get(ctx, c.owner, c.repo)
		if err != nil {
			return source.Sent{}, apiError(err)
		}
		base = repo.GetDefaultBranch()
	}
	pr, _, err := c.gh.PullRequests.Create(ctx, c.owner, c.repo, &gh.NewPullRequest{
		Title: gh.Ptr(w.PR.Title), Head: gh.Ptr(w.PR.Head), Base: gh.Ptr(base), Body: gh.Ptr(w.PR.Body)})
	if status(err) == http.StatusUnprocessableEntity {
		if s, ok, ferr := c.findPull(ctx, w.PR.Head); ferr == nil && ok {
			return s, nil
		}
	}
	if err != nil {
		return source.Sent{}, apiError(err)
	}
	return source.Sent{URL: pr.GetHTMLURL()}, nil
}

func (c *Client) findPull(ctx context.Context, head string) (source.Sent, bool, error) {
	prs, _, err := c.gh.PullRequests.List(ctx, c.owner, c.repo, &gh.PullRequestListOptions{Head: c.owner + ":" + head, State: "all"})
	if err != nil {
		return source.Sent{}, false, apiError(err)
	}
	if len(prs) == 0 {
		return source.Sent{}, false, nil
	}
	return source.Sent{URL: prs[0].GetHTMLURL()}, true, nil
}

// Activity is the newest comment or event on the issue after since by a
// person who can act on it, other than the station itself. A comment
// counts when its author is the repository's owner, a member or a
// collaborator (GitHub's author_association), not an app and not the
// token's own user; an event counts when it needs triage rights (a label,
// an assignee, a milestone), whoever could make it, and is not the
// station's own state label or by its own user. The public's comments and
// the author's own close, reopen or rename do not keep an agent alive.
func (c *Client) Activity(ctx context.Context, ref supervisor.External, since time.Time) (source.Activity, bool, error) {
	n, ok := source.GitHubNumber(ref.ID)
	if !ok {
		return source.Activity{}, false, nil
	}
	self, err := c.self(ctx)
	if err != nil {
		return source.Activity{}, false, err
	}
	var best source.Activity
	cs, _, err := c.gh.Issues.ListComments(ctx, c.owner, c.repo, n, &gh.IssueListCommentsOptions{Since: &since, ListOptions: gh.ListOptions{PerPage: 100}})
	if err != nil {
		return best, false, apiError(err)
	}
	for _, cm := range cs {
		at := cm.GetCreatedAt().Time
		if at.After(since) && at.After(best.At) && canAct(cm, self) && !strings.Contains(cm.GetBody(), "<!-- buildstation:") {
			best = source.Activity{At: at, Detail: "GitHub " + ref.ID + " has a new comment"}
		}
	}
	evs, _, err := c.gh.Issues.ListIssueEvents(ctx, c.owner, c.repo, n, &gh.ListOptions{PerPage: 100})
	if err != nil {
		return best, false, apiError(err)
	}
	for _, e := range evs {
		at := e.GetCreatedAt().Time
		if !at.After(since) || !at.After(best.At) || ours(e) || !triage[e.GetEvent()] ||
			e.GetActor().GetType() == "Bot" || strings.EqualFold(e.GetActor().GetLogin(), self) {
			continue
		}
		best = source.Activity{At: at, Detail: "GitHub " + ref.ID + " " + e.GetEvent() + labelOf(e)}
	}
	return best, !best.At.IsZero(), nil
}

// Comments are the comments on the issue after since by people who can
// act on it, oldest first, not the station's.
func (c *Client) Comments(ctx context.Context, ref supervisor.External, since time.Time) ([]source.Comment, error) {
	n, ok := source.GitHubNumber(ref.ID)
	if !ok {
		return nil, nil
	}
	self, err := c.self(ctx)
	if err != nil {
		return nil, err
	}
	opts := &gh.IssueListCommentsOptions{ListOptions: gh.ListOptions{PerPage: 100}}
	if !since.IsZero() {
		opts.Since = &since
	}
	cs, _, err := c.gh.Issues.ListComments(ctx, c.owner, c.repo, n, opts)
	if err != nil {
		return nil, apiError(err)
	}
	var out []source.Comment
	for _, cm := range cs {
		if at := cm.GetCreatedAt().Time; at.After(since) && canAct(cm, self) && !strings.Contains(cm.GetBody(), "<!-- buildstation:") {
			out = append(out, source.Comment{At: at, Author: cm.GetUser().GetLogin(), Body: cm.GetBody()})
		}
	}
	return out, nil
}

// actors are the author_associations of people who can act on an issue.
var actors = map[string]bool{"OWNER": true, "MEMBER": true, "COLLABORATOR": true}

// triage are the events only someone with triage rights can make.
var triage = map[string]bool{"labeled": true, "unlabeled": true, "assigned": true, "unassigned": true, "milestoned": true, "demilestoned": true}

// canAct reports whether cm's author can act on the issue and is not the
// station (self) or an app.
func canAct(cm *gh.IssueComment, self string) bool {
	u := cm.GetUser()
	return actors[cm.GetAuthorAssociation()] && u.GetType() != "Bot" && !strings.EqualFold(u.GetLogin(), self)
}

// self is the login of the token's user (GET /user), asked once: what the
// station writes is written as them.
func (c *Client) self(ctx context.Context) (string, error) {
	c.mu.Lock()
	login := c.login
	c.mu.Unlock()
	if login != "" {
		return login, nil
	}
	u, _, err := c.gh.Users.Get(ctx, "")
	if err != nil {
		return "", apiError(err)
	}
	c.mu.Lock()
	c.login = u.GetLogin()
	c.mu.Unlock()
	return u.GetLogin(), nil
}

// ours reports whether e is one of the station's own state labels.
func ours(e *gh.IssueEvent) bool {
	if e.GetEvent() != "labeled" && e.GetEvent() != "unlabeled" {
		return false
	}
	for _, l := range stateLabels {
		if e.GetLabel().GetName() == l {
			return true
		}
	}
	return false
}

func labelOf(e *gh.IssueEvent) string {
	if name := e.GetLabel().GetName(); name != "" {
		return " " + name
	}
	return ""
}

// status is the HTTP status of a go-github error, 0 when it has none.
func status(err error) int {
	var er *gh.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		return er.Response.StatusCode
	}
	return 0
}
