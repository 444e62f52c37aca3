package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// The agent side's calls. They need a session token (FromEnv); the station
// applies them to that token's session and task.

// AgentComplete reports the task done, with a summary of the work.
func (c *Client) AgentComplete(ctx context.Context, summary string) error {
	return c.do(ctx, http.MethodPost, "/v1/agent/complete", apitype.SummaryRequest{Summary: summary}, nil)
}

// AgentBlock reports the task cannot go on without a person.
func (c *Client) AgentBlock(ctx context.Context, reason string) error {
	return c.do(ctx, http.MethodPost, "/v1/agent/block", apitype.ReasonRequest{Reason: reason}, nil)
}

// AgentProgress reports a step of progress; it counts as evidence of life.
func (c *Client) AgentProgress(ctx context.Context, message string) error {
	return c.do(ctx, http.MethodPost, "/v1/agent/progress", apitype.MessageRequest{Message: message}, nil)
}

// AgentStatus sets the session's status ("working", "reviewing").
func (c *Client) AgentStatus(ctx context.Context, status string) error {
	return c.do(ctx, http.MethodPost, "/v1/agent/status", apitype.StatusRequest{Status: status}, nil)
}

// AgentTask returns the session's own task and its history.
func (c *Client) AgentTask(ctx context.Context) (apitype.TaskDetail, error) {
	var out apitype.TaskDetail
	err := c.do(ctx, http.MethodGet, "/v1/agent/task", nil, &out)
	return out, err
}

// AgentHook forwards one of the agent CLI's hooks (the fields the station
// reads); it is evidence of life and may say the agent waits for a person.
func (c *Client) AgentHook(ctx context.Context, h supervisor.HookEvent) error {
	return c.do(ctx, http.MethodPost, "/v1/agent/hook", h, nil)
}

// AgentReview settles a review session: verdict "approve" or "changes"
// (which needs notes saying what must change).
func (c *Client) AgentReview(ctx context.Context, verdict, notes string) error {
	return c.do(ctx, http.MethodPost, "/v1/agent/review", apitype.ReviewRequest{Verdict: verdict, Notes: notes}, nil)
}

// AgentAsk asks a person through the station (a permission, a question) and
// waits for the decision: an empty one when nobody decided in the time the
// station gives. It has no timeout of its own but ctx's: the wait is the
// station's to bound.
func (c *Client) AgentAsk(ctx context.Context, req supervisor.AskRequest) (supervisor.Decision, error) {
	var d supervisor.Decision
	r, err := c.newRequest(ctx, http.MethodPost, "/v1/agent/ask", req)
	if err != nil {
		return d, err
	}
	resp, err := c.streamClient().Do(r)
	if err != nil {
		return d, c.transportError(err)
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
