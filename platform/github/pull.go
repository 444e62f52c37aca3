package github

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	gh "github.com/google/go-github/v75/github"

	"github.com/buildstation/buildstation/supervisor/source"
)

var _ source.Reviewer = (*Client)(nil)

// logTail is how much of a failing job's log the agent is given: its end,
// where the failure is.
const (
	logTailBytes = 4 << 10
	logTailLines = 40
	// logRead bounds what is read of a log to find its end.
	logRead = 8 << 20
)

// Pull reads the pull request at url: merged or closed, its head, and the
// feedback after since by people who can act on the repository (owner,
// member, collaborator; never the token's own user): reviews asking for
// changes or commenting, review comments on its lines, and check runs on
// its head that failed, each with its job's log's end (GitHub Actions) or
// its output's summary. Approved names the approver when the newest
// decisive review since is an approval.
func (c *Client) Pull(ctx context.Context, url string, since time.Time) (source.Pull, error) {
	n, err := strconv.Atoi(path.Base(url))
	if err != nil {
		return source.Pull{}, fmt.Errorf("%q is not a pull request's URL", url)
	}
	pr, _, err := c.gh.PullRequests.Get(ctx, c.owner, c.repo, n)
	if err != nil {
		return source.Pull{}, apiError(err)
	}
	out := source.Pull{Number: n, Merged: pr.GetMerged(), Closed: pr.GetState() == "closed" && !pr.GetMerged(), Head: pr.GetHead().GetSHA()}
	if out.Merged || out.Closed {
		return out, nil
	}
	self, err := c.self(ctx)
	if err != nil {
		return out, err
	}
	acts := func(u *gh.User, assoc string) bool {
		return actors[assoc] && u.GetType() != "Bot" && !strings.EqualFold(u.GetLogin(), self)
	}
	reviews, _, err := c.gh.PullRequests.ListReviews(ctx, c.owner, c.repo, n, &gh.ListOptions{PerPage: 100})
	if err != nil {
		return out, apiError(err)
	}
	approved := ""
	for _, r := range reviews {
		at := r.GetSubmittedAt().Time
		if !at.After(since) || !acts(r.GetUser(), r.GetAuthorAssociation()) {
			continue
		}
		who := r.GetUser().GetLogin()
		switch r.GetState() {
		case "CHANGES_REQUESTED":
			approved = ""
			out.Feedback = append(out.Feedback, source.Feedback{ID: fmt.Sprint("review ", r.GetID()), At: at, What: who + " asked for changes", Text: r.GetBody()})
		case "COMMENTED":
			if strings.TrimSpace(r.GetBody()) != "" {
				out.Feedback = append(out.Feedback, source.Feedback{ID: fmt.Sprint("review ", r.GetID()), At: at, What: who + " commented", Text: r.GetBody()})
			}
		case "APPROVED":
			approved = who
		}
	}
	comments, _, err := c.gh.PullRequests.ListComments(ctx, c.owner, c.repo, n, &gh.PullRequestListCommentsOptions{Since: since, ListOptions: gh.ListOptions{PerPage: 100}})
	if err != nil {
		return out, apiError(err)
	}
	for _, cm := range comments {
		at := cm.GetCreatedAt().Time
		if !at.After(since) || !acts(cm.GetUser(), cm.GetAuthorAssociation()) {
			continue
		}
		where := cm.GetPath()
		if l := cm.GetLine(); l > 0 {
			where += ":" + strconv.Itoa(l)
		}
		out.Feedback = append(out.Feedback, source.Feedback{ID: fmt.Sprint("comment ", cm.GetID()), At: at, What: cm.GetUser().GetLogin() + " on " + where, Text: cm.GetBody()})
	}
	if out.Head != "" {
		failed, err := c.failedChecks(ctx, out.Head)
		if err != nil {
			return out, err
		}
		out.Feedback = append(out.Feedback, failed...)
	}
	slices.SortStableFunc(out.Feedback, func(a, b source.Feedback) int { return a.At.Compare(b.At) })
	out.Approved = approved
	return out, nil
}

// failedChecks are the check runs on sha that completed and failed (or
// timed out), each with the end of its job's log, or its summary.
func (c *Client) failedChecks(ctx context.Context, sha string) ([]source.Feedback, error) {
	res, _, err := c.gh.Checks.ListCheckRunsForRef(ctx, c.owner, c.repo, sha, &gh.ListCheckRunsOptions{ListOptions: gh.ListOptions{PerPage: 100}})
	if err != nil {
		return nil, apiError(err)
	}
	var out []source.Feedback
	for _, cr := range res.CheckRuns {
		if cr.GetStatus() != "completed" || cr.GetConclusion() != "failure" && cr.GetConclusion() != "timed_out" {
			continue
		}
		text := cr.GetOutput().GetSummary()
		if cr.GetApp().GetSlug() == "github-actions" {
			// An Actions check run is its job: the job's log says why.
			if tail, err := c.jobLogTail(ctx, cr.GetID()); err == nil && tail != "" {
				text = "the end of its log:\n" + tail
			} else if err != nil {
				text += fmt.Sprintf("\n(its log could not be read: %v)", err)
			}
		}
		at := cr.GetCompletedAt().Time
		if at.IsZero() {
			at = time.Now()
		}
		out = append(out, source.Feedback{ID: fmt.Sprint("check ", cr.GetID()), At: at, What: "check " + cr.GetName() + " " + map[string]string{"failure": "failed", "timed_out": "timed out"}[cr.GetConclusion()], Text: strings.TrimSpace(text)})
	}
	return out, nil
}

// jobLogTail is the end of an Actions job's log: GitHub answers with a
// redirect to where the log is, which is read bounded (and, on another
// host, without the token: tokenhttp sends it to the API's host alone).
func (c *Client) jobLogTail(ctx context.Context, jobID int64) (string, error) {
	u, _, err := c.gh.Actions.GetWorkflowJobLogs(ctx, c.owner, c.repo, jobID, 0)
	if err != nil {
		return "", apiError(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", err
	}
	resp, err := c.gh.Client().Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("the log's address answered %s", resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, logRead))
	if err != nil {
		return "", err
	}
	return tail(string(b)), nil
}

// tail is the last logTailLines lines of a log, at most logTailBytes.
func tail(log string) string {
	lines := strings.Split(strings.TrimRight(log, "\n"), "\n")
	if len(lines) > logTailLines {
		lines = lines[len(lines)-logTailLines:]
	}
	s := strings.Join(lines, "\n")
	if len(s) > logTailBytes {
		s = strings.ToValidUTF8(s[len(s)-logTailBytes:], "")
	}
	return s
}

// closeIssue closes issue n as completed with w's comment, and drops the
// station's state labels: the work is done.
func (c *Client) closeIssue(ctx context.Context, n int, w source.Write) (source.Sent, error) {
	sent, err := c.comment(ctx, n, w)
	if err != nil {
		return sent, err
	}
	is, _, err := c.gh.Issues.Get(ctx, c.owner, c.repo, n)
	if err != nil {
		return sent, apiError(err)
	}
	for _, l := range is.Labels {
		for _, own := range stateLabels {
			if l.GetName() == own {
				if _, err := c.gh.Issues.RemoveLabelForIssue(ctx, c.owner, c.repo, n, own); err != nil && status(err) != http.StatusNotFound {
					return sent, apiError(err)
				}
			}
		}
	}
	if is.GetState() == "closed" {
		return sent, nil // the pull request's "Closes #N" closed it
	}
	if _, _, err := c.gh.Issues.Edit(ctx, c.owner, c.repo, n, &gh.IssueRequest{State: gh.Ptr("closed"), StateReason: gh.Ptr("completed")}); err != nil {
		return sent, apiError(err)
	}
	return sent, nil
}
