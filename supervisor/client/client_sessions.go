package client

import (
	"context"
	"net/url"
	"strconv"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// Sessions lists the live sessions.
func (c *Client) Sessions(ctx context.Context) ([]supervisor.SessionInfo, error) {
	out := []supervisor.SessionInfo{}
	err := c.do(ctx, "GET", "/v1/sessions", nil, &out)
	return out, err
}

// Session returns one session.
func (c *Client) Session(ctx context.Context, id string) (supervisor.SessionInfo, error) {
	var out supervisor.SessionInfo
	err := c.do(ctx, "GET", "/v1/sessions/"+esc(id), nil, &out)
	return out, err
}

// Send types text into a session, then Enter.
func (c *Client) Send(ctx context.Context, id, text string) error {
	return c.do(ctx, "POST", "/v1/sessions/"+esc(id)+"/send", apitype.TextRequest{Text: text}, nil)
}

// Nudge types the nudge text into a session now, as the watchdog would.
func (c *Client) Nudge(ctx context.Context, id string) error {
	return c.do(ctx, "POST", "/v1/sessions/"+esc(id)+"/nudge", nil, nil)
}

// Block blocks a session's task with reason and ends the session.
func (c *Client) Block(ctx context.Context, id, reason string) error {
	return c.do(ctx, "POST", "/v1/sessions/"+esc(id)+"/block", apitype.ReasonRequest{Reason: reason}, nil)
}

// Transcript reads a session's raw output from byte from on (from < 0:
// from the end); id may be a task id, which picks its latest session.
func (c *Client) Transcript(ctx context.Context, id string, from int64) (supervisor.Transcript, error) {
	var out supervisor.Transcript
	err := c.do(ctx, "GET", "/v1/sessions/"+url.PathEscape(id)+"/transcript?from="+strconv.FormatInt(from, 10), nil, &out)
	return out, err
}
