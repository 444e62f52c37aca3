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
	etag        string

	mu    sync.Mutex
	login string // the token's user, once asked (self)
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
	return &Client{gh: c, owner: owner, repo: repo, cfg: src}, nil
}

// Poll lists the open issues with the source's label. The list's ETag is
// sent back with If-None-Match: an unchanged list is a 304, which GitHub
// does not count against the rate limit.
func (c *Client) Poll(ctx context.Context) ([]source.Item, bool, error) {
	u := fmt.Sprintf("repos/%s/%s/issues?state=open&per_page=100&labels=%s", c.owner, c.repo, url.QueryEscape(c.cfg.Label))
	var items []source.Item
	for page := 1; u != ""; page++ {
		req, err := c.gh.NewRequest(http.MethodGet, u, nil)
		if err != nil {
			return nil, false, err
		}
		if page == 1 && c.etag != "" {
			req.Header.Set("If-None-Match", c.etag)
		}
		var issues []*gh.Issue
		resp, err := c.gh.Do(ctx, req, &issues)
		if page == 1 && resp != nil && resp.StatusCode == http.StatusNotModified {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, apiError(err)
		}
		if page == 1 {
			c.etag = resp.Header.Get("ETag")
		}
		for _, is := range issues {
			if !is.IsPullRequest() {
				items = append(items, c.item(is))
			}
		}
		u = ""
		if resp.NextPage != 0 {
			u = fmt.Sprintf("repos/%s/%s/issues?state=open&per_page=100&labels=%s&page=%d", c.owner, c.repo, url.QueryEscape(c.cfg.Label), resp.NextPage)
		}
	}
	return items, true, nil
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
		Ref:       supervisor.External{Kind: config.SourceGitHub, ID: source.GitHubID(c.cfg.Repo, is.GetNumber()), URL: is.GetHTMLURL()},
		Title:     is.GetTitle(),
		Body:      is.GetBody(),
		Matches:   open && labelled,
		Closed:    !open,
		State:     is.GetState(),
		UpdatedAt: is.GetUpdatedAt().Time,
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
