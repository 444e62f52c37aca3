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

// tagged is a GET's last answer with its ETag: asked again with
// If-None-Match, an unchanged resource answers 304, free of the rate limit.
type tagged struct {
	etag string
	body any
}

// getTagged GETs u (relative to the API) into a T, sending the ETag of its
// last answer; fresh is false when it answered 304 and the last answer is
// returned.
func getTagged[T any](ctx context.Context, c *Client, u string) (v T, fresh bool, err error) {
	c.mu.Lock()
	old, had := c.tags[u]
	c.mu.Unlock()
	req, err := c.gh.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		return v, false, err
	}
	if had {
		req.Header.Set("If-None-Match", old.etag)
	}
	resp, err := c.gh.Do(ctx, req, &v)
	if had && resp != nil && resp.StatusCode == http.StatusNotModified {
		return old.body.(T), false, nil
	}
	if err != nil {
		return v, false, apiError(err)
	}
	c.mu.Lock()
	c.tags[u] = tagged{etag: resp.Header.Get("ETag"), body: v}
	c.mu.Unlock()
	return v, true, nil
}

// forget drops the answers kept for the reads under prefix: a pull
// request merged or closed is not read again.
func (c *Client) forget(prefix string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for u := range c.tags {
		if strings.HasPrefix(u, prefix) {
			delete(c.tags, u)
		}
	}
}

// checksSeen is the failed checks found on a head, kept while its check
// runs answer 304 (their logs are not read again).
type checksSeen struct {
	head   string
	failed []source.Feedback
}

// requiredSeen is a base branch's required checks, asked at most every
// requiredTTL.
type requiredSeen struct {
	names map[string]bool // nil: every check counts
	at    time.Time
}

const requiredTTL = 10 * time.Minute

// Pull reads the pull request at url: merged or closed, its head, and the
// feedback after since by people who can act on the repository (owner,
// member, collaborator; never the token's own user): reviews asking for
// changes or commenting, review comments on its lines, and check runs on
// its head that failed — those its base branch's protection requires, or
// every one when it requires none — each with its job's log's end (GitHub
// Actions) or its output's summary. Approved names the approver when the
// newest decisive review since is an approval. Every read carries the
// ETag of its last answer, so a pull request nobody touched costs no rate
// limit (four 304s).
func (c *Client) Pull(ctx context.Context, url string, since time.Time) (source.Pull, error) {
	n, err := strconv.Atoi(path.Base(url))
	if err != nil {
		return source.Pull{}, fmt.Errorf("%q is not a pull request's URL", url)
	}
	base := fmt.Sprintf("repos/%s/%s/pulls/%d", c.owner, c.repo, n)
	pr, _, err := getTagged[*gh.PullRequest](ctx, c, base)
	if err != nil {
		return source.Pull{}, err
	}
	out := source.Pull{Number: n, Merged: pr.GetMerged(), Closed: pr.GetState() == "closed" && !pr.GetMerged(), Head: pr.GetHead().GetSHA()}
	if out.Merged || out.Closed {
		c.forget(base)
		c.mu.Lock()
		delete(c.checks, n)
		c.mu.Unlock()
		return out, nil
	}
	if out.Feedback, out.Approved, err = c.reviewsSince(ctx, base, since); err != nil {
		return source.Pull{}, err
	}
	if out.Head != "" {
		failed, err := c.failedChecks(ctx, n, out.Head, pr.GetBase().GetRef())
		if err != nil {
			return source.Pull{}, err
		}
		out.Feedback = append(out.Feedback, failed...)
	}
	slices.SortStableFunc(out.Feedback, func(a, b source.Feedback) int { return a.At.Compare(b.At) })
	return out, nil
}

// reviewsSince is the feedback of a pull request's reviews and review
// comments (base is its API path) after since, and who approved it last
// (when the newest decisive review is an approval).
func (c *Client) reviewsSince(ctx context.Context, base string, since time.Time) ([]source.Feedback, string, error) {
	self, err := c.self(ctx)
	if err != nil {
		return nil, "", err
	}
	acts := func(u *gh.User, assoc string) bool {
		return actors[assoc] && u.GetType() != "Bot" && !strings.EqualFold(u.GetLogin(), self)
	}
	reviews, _, err := getTagged[[]*gh.PullRequestReview](ctx, c, base+"/reviews?per_page=100")
	if err != nil {
		return nil, "", err
	}
	var out []source.Feedback
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
			out = append(out, source.Feedback{ID: fmt.Sprint("review ", r.GetID()), At: at, What: who + " asked for changes", Text: r.GetBody()})
		case "COMMENTED":
			if strings.TrimSpace(r.GetBody()) != "" {
				out = append(out, source.Feedback{ID: fmt.Sprint("review ", r.GetID()), At: at, What: who + " commented", Text: r.GetBody()})
			}
		case "APPROVED":
			approved = who
		}
	}
	// All of them, not since: the list's ETag then holds across rounds.
	comments, _, err := getTagged[[]*gh.PullRequestComment](ctx, c, base+"/comments?per_page=100")
	if err != nil {
		return nil, "", err
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
		out = append(out, source.Feedback{ID: fmt.Sprint("comment ", cm.GetID()), At: at, What: cm.GetUser().GetLogin() + " on " + where, Text: cm.GetBody()})
	}
	return out, approved, nil
}

// failedChecks are the check runs on pull request n's head sha that
// completed and failed (or timed out) among those its base requires
// (every one when it requires none), each with the end of its job's log,
// or its summary. While the check runs answer 304, what was found is kept.
func (c *Client) failedChecks(ctx context.Context, n int, sha, base string) ([]source.Feedback, error) {
	res, fresh, err := getTagged[*gh.ListCheckRunsResults](ctx, c, fmt.Sprintf("repos/%s/%s/commits/%s/check-runs?per_page=100", c.owner, c.repo, sha))
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	seen, ok := c.checks[n]
	c.mu.Unlock()
	if !fresh && ok && seen.head == sha {
		return seen.failed, nil
	}
	required, err := c.required(ctx, base)
	if err != nil {
		return nil, err
	}
	var out []source.Feedback
	for _, cr := range res.CheckRuns {
		if cr.GetStatus() != "completed" || cr.GetConclusion() != "failure" && cr.GetConclusion() != "timed_out" || required != nil && !required[cr.GetName()] {
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
		out = append(out, source.Feedback{ID: fmt.Sprint("check ", cr.GetID()), At: at,
			What: "check " + cr.GetName() + " " + map[string]string{"failure": "failed", "timed_out": "timed out"}[cr.GetConclusion()], Text: strings.TrimSpace(text)})
	}
	c.mu.Lock()
	c.checks[n] = checksSeen{head: sha, failed: out}
	c.mu.Unlock()
	return out, nil
}

// required is the names of the checks base's branch protection requires
// (GET /branches/{base}: its protection's required_status_checks, contexts
// and checks); nil when it requires none or is not protected.
func (c *Client) required(ctx context.Context, base string) (map[string]bool, error) {
	if base == "" {
		return nil, nil
	}
	c.mu.Lock()
	r, ok := c.requiredOf[base]
	c.mu.Unlock()
	if ok && time.Since(r.at) < requiredTTL {
		return r.names, nil
	}
	b, _, err := c.gh.Repositories.GetBranch(ctx, c.owner, c.repo, base, 1)
	if err != nil && status(err) != http.StatusNotFound {
		return nil, apiError(err)
	}
	var names map[string]bool
	if rs := b.GetProtection().GetRequiredStatusChecks(); rs != nil {
		add := func(name string) {
			if names == nil {
				names = map[string]bool{}
			}
			names[name] = true
		}
		if rs.Contexts != nil {
			for _, ctx := range *rs.Contexts {
				add(ctx)
			}
		}
		if rs.Checks != nil {
			for _, ch := range *rs.Checks {
				add(ch.Context)
			}
		}
	}
	c.mu.Lock()
	c.requiredOf[base] = requiredSeen{names: names, at: time.Now()}
	c.mu.Unlock()
	return names, nil
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
