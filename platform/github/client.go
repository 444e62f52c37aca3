package github

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	gh "github.com/google/go-github/v75/github"

	"github.com/buildstation/buildstation/platform/tokenhttp"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
	"github.com/buildstation/buildstation/supervisor/source"
)

// Labels the station sets for a state, on GitHub where issues have no
// workflow states.
var stateLabels = map[string]string{
	source.StateInProgress: "in progress",
	source.StateBlocked:    "blocked",
	source.StateInReview:   "in review",
}

// DefaultAPI is github.com's REST API.
const DefaultAPI = "https://api.github.com"

// Client is one GitHub source. Poll is called from one goroutine (the
// syncer's); the other methods may run beside it.
type Client struct {
	gh          *gh.Client
	owner, repo string
	cfg         config.Source

	// The poll's state, owned by the one goroutine that calls Poll.
	since time.Time       // the newest updated_at seen
	polls int             // polls that succeeded
	pages map[string]page // the last poll's pages by URL, for If-None-Match

	mu         sync.Mutex
	login      string                  // the token's user, once asked (self)
	tags       map[string]tagged       // a pull request's reads' last answers (Pull)
	checks     map[int]checksSeen      // a pull request's failed checks on its head
	requiredOf map[string]requiredSeen // a base branch's required checks
}

var _ source.Tracker = (*Client)(nil)

// New is a client for src with token; hc carries the requests (nil: a
// client with a 30s timeout).
func New(src config.Source, token string, hc *http.Client) (*Client, error) {
	api := DefaultAPI
	if src.APIURL != "" {
		api = src.APIURL
	}
	// The token is set by tokenhttp, for the API's host alone: go-github's
	// own WithAuthToken sets it on every request, a redirect's too.
	hc, err := tokenhttp.Client(api, "Authorization", "Bearer "+token, hc)
	if err != nil {
		return nil, fmt.Errorf("github api_url: %w", err)
	}
	c := gh.NewClient(hc)
	u, err := url.Parse(strings.TrimRight(api, "/") + "/")
	if err != nil {
		return nil, fmt.Errorf("github api_url %q: %w", src.APIURL, err)
	}
	c.BaseURL = u
	owner, repo, _ := strings.Cut(src.Repo, "/")
	return &Client{gh: c, owner: owner, repo: repo, cfg: src, tags: map[string]tagged{}, checks: map[int]checksSeen{}, requiredOf: map[string]requiredSeen{}}, nil
}

// reconcileEvery is how often (in polls) the full list of labelled open
// issues is read instead of what changed: it catches an issue a page
// boundary hid while the list moved under a poll, and an unlabelled task
// whose issue no poll returned.
const reconcileEvery = 15

// pageTries is how many times one page is asked before the poll fails.
const pageTries = 3

// page is what a list page answered last: a 304 for its URL returns it.
type page struct {
	etag  string
	items []source.Item
	next  string
}

// Poll reads what changed. The first poll, and every reconcileEvery-th,
// lists the open issues with the source's label (full); the others list
// every issue, in every state and with any labels, updated since the
// newest updated_at seen (GitHub's since, inclusive), oldest change first,
// every page. Each page is asked with its own ETag, so an unchanged page
// costs no rate limit, and a page that fails is asked again before the
// poll fails; a poll that fails changes nothing (neither the watermark nor
// the ETags), so the next one asks for the same changes again.
func (c *Client) Poll(ctx context.Context) ([]source.Item, bool, error) {
	full := c.since.IsZero() || c.polls%reconcileEvery == 0
	q := url.Values{"per_page": {"100"}, "sort": {"updated"}, "direction": {"asc"}}
	if full {
		q.Set("state", "open")
		q.Set("labels", c.cfg.Label)
	} else {
		q.Set("state", "all")
		q.Set("since", c.since.UTC().Format(time.RFC3339))
	}
	started := time.Now()
	pages := map[string]page{}
	var items []source.Item
	changed := false
	for u := fmt.Sprintf("repos/%s/%s/issues?%s", c.owner, c.repo, q.Encode()); u != ""; {
		p, fresh, err := c.page(ctx, u)
		if err != nil {
			return nil, false, err
		}
		pages[u] = p
		items = append(items, p.items...)
		changed = changed || fresh
		u = p.next
	}
	c.polls++
	c.pages = pages
	if !changed {
		// Every page a 304: what they hold was read before.
		return nil, false, nil
	}
	for _, it := range items {
		if it.UpdatedAt.After(c.since) {
			c.since = it.UpdatedAt
		}
	}
	if c.since.IsZero() {
		c.since = started.Add(-time.Minute) // nothing yet: ask for changes from about now on
	}
	return items, full, nil
}

// page reads one list page, with its ETag, up to pageTries times when it
// fails for the server or the network.
func (c *Client) page(ctx context.Context, u string) (page, bool, error) {
	var err error
	for range pageTries {
		p, fresh, err1 := c.pageOnce(ctx, u)
		if err = err1; err == nil || !source.Retryable(err) || limited(err) || ctx.Err() != nil {
			return p, fresh, err
		}
	}
	return page{}, false, err
}

// pageOnce asks for one page; fresh is false for a 304.
func (c *Client) pageOnce(ctx context.Context, u string) (page, bool, error) {
	req, err := c.gh.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		return page{}, false, err
	}
	old, had := c.pages[u]
	if had {
		req.Header.Set("If-None-Match", old.etag)
	}
	var issues []*gh.Issue
	resp, err := c.gh.Do(ctx, req, &issues)
	if had && resp != nil && resp.StatusCode == http.StatusNotModified {
		return old, false, nil
	}
	if err != nil {
		return page{}, false, apiError(err)
	}
	p := page{etag: resp.Header.Get("ETag")}
	for _, is := range issues {
		if !is.IsPullRequest() {
			p.items = append(p.items, c.item(is))
		}
	}
	if resp.NextPage != 0 {
		base, _, _ := strings.Cut(u, "&page=")
		p.next = fmt.Sprintf("%s&page=%d", base, resp.NextPage)
	}
	return p, true, nil
}

// limited reports whether err is a rate limit: asking again at once would
// only be refused again.
func limited(err error) bool {
	var ae *source.APIError
	return errors.As(err, &ae) && (ae.Limited || ae.Status > 0 && ae.Status < 500)
}

// Item reads one issue.
func (c *Client) Item(ctx context.Context, ref supervisor.External) (source.Item, error) {
	n, ok := source.GitHubNumber(ref.ID)
	if !ok {
		return source.Item{}, fmt.Errorf("%q is not a GitHub issue", ref.ID)
	}
	is, _, err := c.gh.Issues.Get(ctx, c.owner, c.repo, n)
	if err != nil {
		return source.Item{}, apiError(err)
	}
	return c.item(is), nil
}

// item is is as a source item.
func (c *Client) item(is *gh.Issue) source.Item {
	labelled := false
	for _, l := range is.Labels {
		labelled = labelled || l.GetName() == c.cfg.Label
	}
	open := is.GetState() == "open"
	return source.Item{
		Ref:     supervisor.External{Kind: config.SourceGitHub, ID: source.GitHubID(c.cfg.Repo, is.GetNumber()), URL: is.GetHTMLURL()},
		Title:   is.GetTitle(),
		Body:    is.GetBody(),
		Matches: open && labelled,
		Closed:  !open, Unlabelled: !labelled,
		State:     is.GetState(),
		UpdatedAt: is.GetUpdatedAt().Time,
		Comments:  is.GetComments(),
	}
}

// apiError is err as the source package reads it: a refusal with its
// status, a rate limit with its reset, or the network.
func apiError(err error) error {
	var (
		rl  *gh.RateLimitError
		ab  *gh.AbuseRateLimitError
		er  *gh.ErrorResponse
		ae  *source.APIError
		url *url.Error
	)
	switch {
	case errors.As(err, &ae):
		return err
	case errors.As(err, &rl):
		return &source.APIError{Status: http.StatusForbidden, Msg: rl.Message, Limited: true, Reset: rl.Rate.Reset.Time}
	case errors.As(err, &ab):
		reset := time.Now().Add(time.Minute)
		if ab.RetryAfter != nil {
			reset = time.Now().Add(*ab.RetryAfter)
		}
		return &source.APIError{Status: http.StatusForbidden, Msg: ab.Message, Limited: true, Reset: reset}
	case errors.As(err, &er):
		e := &source.APIError{Status: er.Response.StatusCode, Msg: er.Message}
		if ra := er.Response.Header.Get("Retry-After"); ra != "" || e.Status == http.StatusTooManyRequests {
			e.Limited, e.Reset = true, time.Now().Add(retryAfter(ra))
		}
		return e
	case errors.As(err, &url):
		return fmt.Errorf("%w: %w", supervisor.ErrUnreachable, err)
	}
	return err
}

// retryAfter reads a Retry-After of seconds; a minute when it has none.
func retryAfter(v string) time.Duration {
	var n int
	if _, err := fmt.Sscan(v, &n); err != nil || n <= 0 {
		return time.Minute
	}
	return time.Duration(n) * time.Second
}
