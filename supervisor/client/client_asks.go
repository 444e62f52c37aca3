package client

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// Allow allows once the tool call a session waits on — the request whose
// id (waiting_on.id) is request, the one the person was shown — with an
// optional note to the agent. A request that changed since is a conflict
// saying "the request changed; look again".
func (c *Client) Allow(ctx context.Context, id, request, note string) error {
	return c.do(ctx, "POST", "/v1/sessions/"+esc(id)+"/allow", apitype.DecisionRequest{Request: request, Note: note}, nil)
}

// Deny refuses the tool call (or the question) a session waits on; the note
// reaches the agent. request "" denies whatever request waits.
func (c *Client) Deny(ctx context.Context, id, request, note string) error {
	return c.do(ctx, "POST", "/v1/sessions/"+esc(id)+"/deny", apitype.DecisionRequest{Request: request, Note: note}, nil)
}

// Answer answers the question a session's agent asks, the one whose id is
// request.
func (c *Client) Answer(ctx context.Context, id, request, answer string) error {
	return c.do(ctx, "POST", "/v1/sessions/"+esc(id)+"/answer", apitype.DecisionRequest{Request: request, Answer: answer}, nil)
}

// AgentAsk asks a person through the station (a permission, a question) and
// waits for the decision: an empty one when nobody decided in the time the
// station gives. It has no timeout of its own but ctx's: the wait is the
// station's to bound.
func (c *Client) AgentAsk(ctx context.Context, req supervisor.AskRequest) (supervisor.Decision, error) {
	var d supervisor.Decision
	r, err := c.newRequest("POST", "/v1/agent/ask", req)
	if err != nil {
		return d, err
	}
	resp, err := c.send(ctx, r)
	if err != nil {
		return d, err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return d, readError(resp)
	}
	if err := json.NewDecoder(resp.Body).Decode(&d); err != nil {
		return d, fmt.Errorf("read the station's decision: %w", err)
	}
	return d, nil
}
