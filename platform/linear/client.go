package linear

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/Khan/genqlient/graphql"

	"github.com/buildstation/buildstation/platform/tokenhttp"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
	"github.com/buildstation/buildstation/supervisor/source"
)

// Endpoint is Linear's GraphQL API.
const Endpoint = "https://api.linear.app/graphql"

// Client is one Linear source.
type Client struct {
	gql   graphql.Client
	cfg   config.Source
	since time.Time // the newest updatedAt seen: later polls ask for what changed after it

	mu     sync.Mutex
	states map[string]string // workflow state name → id
	team   bool              // the team was found
}

var _ source.Tracker = (*Client)(nil)

// New is a client for src with token (a personal API key, sent as is in
// Authorization, as Linear documents, to the API's host alone); hc
// carries the requests. It fails when api_url may not carry a key
// (tokenhttp.CheckURL).
func New(src config.Source, token string, hc *http.Client) (*Client, error) {
	endpoint := Endpoint
	if src.APIURL != "" {
		endpoint = src.APIURL
	}
	hc, err := tokenhttp.Client(endpoint, "Authorization", token, hc)
	if err != nil {
		return nil, fmt.Errorf("linear api_url: %w", err)
	}
	return &Client{gql: graphql.NewClient(endpoint, &doer{hc: hc}), cfg: src, states: map[string]string{}}, nil
}

// Poll asks, the first time, for the team's issues with the label in the
// import state (full); then only for the team's issues updated since the
// newest one seen, whatever their state, so edits and closes come through
// and an unchanged team returns nothing.
func (c *Client) Poll(ctx context.Context) ([]source.Item, bool, error) {
	if err := c.checkTeam(ctx); err != nil {
		return nil, false, err
	}
	f := IssueFilter{Team: &TeamFilter{Key: &StringComparator{Eq: c.cfg.Team}}}
	full := c.since.IsZero()
	if full {
		f.Labels = &IssueLabelCollectionFilter{Name: &StringComparator{Eq: c.cfg.Label}}
		f.State = &WorkflowStateFilter{Name: &StringComparator{Eq: c.cfg.State}}
	} else {
		f.UpdatedAt = &DateComparator{Gt: c.since.UTC().Format(time.RFC3339Nano)}
	}
	resp, err := retried(ctx, func() (*IssuesResponse, error) { return Issues(ctx, c.gql, f) })
	if err != nil {
		return nil, false, err
	}
	var items []source.Item
	for _, n := range resp.Issues.Nodes {
		items = append(items, c.item(n.IssueFields))
	}
	more, cursor := resp.Issues.PageInfo.HasNextPage, resp.Issues.PageInfo.EndCursor
	for more {
		next, err := retried(ctx, func() (*IssuesAfterResponse, error) { return IssuesAfter(ctx, c.gql, f, cursor) })
		if err != nil {
			return nil, false, err
		}
		for _, n := range next.Issues.Nodes {
			items = append(items, c.item(n.IssueFields))
		}
		more, cursor = next.Issues.PageInfo.HasNextPage, next.Issues.PageInfo.EndCursor
	}
	for _, it := range items {
		if it.UpdatedAt.After(c.since) {
			c.since = it.UpdatedAt
		}
	}
	if full && c.since.IsZero() {
		c.since = time.Now().Add(-time.Minute) // nothing yet: ask for changes from about now on
	}
	return items, full, nil
}

// pageTries is how many times one page is asked before the poll fails.
const pageTries = 3

// retried asks for a page up to pageTries times while it fails for the
// server or the network; a refusal (a token, a rate limit) is final.
func retried[T any](ctx context.Context, ask func() (T, error)) (T, error) {
	var (
		out T
		err error
	)
	for range pageTries {
		if out, err = ask(); err == nil {
			return out, nil
		}
		err = apiError(err)
		var ae *source.APIError
		if errors.As(err, &ae) && (ae.Limited || ae.Status > 0 && ae.Status < 500) || ctx.Err() != nil {
			return out, err
		}
	}
	return out, err
}

// checkTeam turns a team that does not exist into a 404, once.
func (c *Client) checkTeam(ctx context.Context) error {
	c.mu.Lock()
	ok := c.team
	c.mu.Unlock()
	if ok {
		return nil
	}
	resp, err := Team(ctx, c.gql, c.cfg.Team)
	if err != nil {
		return apiError(err)
	}
	if len(resp.Teams.Nodes) == 0 {
		return &source.APIError{Status: http.StatusNotFound, Msg: "no team with key " + c.cfg.Team}
	}
	c.mu.Lock()
	c.team = true
	c.mu.Unlock()
	return nil
}

// Item reads one issue by its identifier.
func (c *Client) Item(ctx context.Context, ref supervisor.External) (source.Item, error) {
	resp, err := Issue(ctx, c.gql, ref.ID)
	if err != nil {
		return source.Item{}, apiError(err)
	}
	return c.item(resp.Issue.IssueFields), nil
}

func (c *Client) item(f IssueFields) source.Item {
	labelled := false
	for _, l := range f.Labels.Nodes {
		labelled = labelled || l.Name == c.cfg.Label
	}
	closed := f.State.Type == "completed" || f.State.Type == "canceled"
	return source.Item{
		Ref:     supervisor.External{Kind: config.SourceLinear, ID: f.Identifier, URL: f.Url},
		Title:   f.Title,
		Body:    f.Description,
		Matches: labelled && !closed && f.State.Name == c.cfg.State,
		Closed:  closed, Unlabelled: !labelled, State: f.State.Name, UpdatedAt: f.UpdatedAt,
		Comments: -1, // Linear's issue says not how many
	}
}

// doer sends genqlient's requests with the key, and turns Linear's
// refusals into *source.APIError: HTTP statuses, and the error codes of a
// GraphQL answer (RATELIMITED with its reset headers, AUTHENTICATION_ERROR,
// FORBIDDEN).
type doer struct {
	hc *http.Client
}

func (d *doer) Do(req *http.Request) (*http.Response, error) {
	resp, err := d.hc.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			return nil, fmt.Errorf("%w: %w", supervisor.ErrUnreachable, err)
		}
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", supervisor.ErrUnreachable, err)
	}
	if e := refusal(resp, body); e != nil {
		return nil, e
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

// refusal reads a refusal out of an answer, or nil.
func refusal(resp *http.Response, body []byte) *source.APIError {
	var out struct {
		Errors []struct {
			Message    string
			Extensions struct{ Code string }
		}
	}
	json.Unmarshal(body, &out)
	code, msg := "", http.StatusText(resp.StatusCode)
	if len(out.Errors) > 0 {
		code, msg = out.Errors[0].Extensions.Code, out.Errors[0].Message
	}
	switch {
	case code == "RATELIMITED" || resp.StatusCode == http.StatusTooManyRequests:
		return &source.APIError{Status: resp.StatusCode, Msg: msg, Limited: true, Reset: resetOf(resp.Header)}
	case code == "AUTHENTICATION_ERROR" || resp.StatusCode == http.StatusUnauthorized:
		return &source.APIError{Status: http.StatusUnauthorized, Msg: msg}
	case code == "FORBIDDEN" || resp.StatusCode == http.StatusForbidden:
		return &source.APIError{Status: http.StatusForbidden, Msg: msg}
	case resp.StatusCode >= 300:
		return &source.APIError{Status: resp.StatusCode, Msg: msg}
	}
	return nil
}

// resetOf is when Linear's rate limit lifts: the reset (UTC epoch
// milliseconds) of the limit that ran out, requests or complexity; the
// earlier one when the headers do not say which; a minute when none.
func resetOf(h http.Header) time.Time {
	var out, earliest time.Time
	for _, kind := range []string{"Requests", "Complexity"} {
		ms, err := strconv.ParseInt(h.Get("X-RateLimit-"+kind+"-Reset"), 10, 64)
		if err != nil {
			continue
		}
		at := time.UnixMilli(ms)
		if h.Get("X-RateLimit-"+kind+"-Remaining") == "0" && at.After(out) {
			out = at
		}
		if earliest.IsZero() || at.Before(earliest) {
			earliest = at
		}
	}
	switch {
	case !out.IsZero():
		return out
	case !earliest.IsZero():
		return earliest
	}
	return time.Now().Add(time.Minute)
}

// apiError keeps a refusal as it is and reads a GraphQL error in a 200
// (an issue that does not exist) as a 404.
func apiError(err error) error {
	var ae *source.APIError
	if errors.As(err, &ae) || errors.Is(err, supervisor.ErrUnreachable) {
		return err
	}
	if strings.Contains(strings.ToLower(err.Error()), "not found") {
		// "Entity not found: Issue": the one issue is gone (the team is
		// checked on its own, by checkTeam).
		return &source.APIError{Status: http.StatusNotFound, Msg: err.Error(), Entity: true}
	}
	return err
}
