package client

import (
	"context"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// The agent side's calls. They need a session token (FromEnv); the station
// applies them to that token's session and task.

// AgentComplete reports the task done, with a summary of the work.
func (c *Client) AgentComplete(ctx context.Context, summary string) error {
	return c.do(ctx, "POST", "/v1/agent/complete", apitype.SummaryRequest{Summary: summary}, nil)
}

// AgentBlock reports the task cannot go on without a person.
func (c *Client) AgentBlock(ctx context.Context, reason string) error {
	return c.do(ctx, "POST", "/v1/agent/block", apitype.ReasonRequest{Reason: reason}, nil)
}

// AgentProgress reports a step of progress; it counts as evidence of life.
func (c *Client) AgentProgress(ctx context.Context, message string) error {
	return c.do(ctx, "POST", "/v1/agent/progress", apitype.MessageRequest{Message: message}, nil)
}

// AgentStatus sets the session's status ("working", "reviewing").
func (c *Client) AgentStatus(ctx context.Context, status string) error {
	return c.do(ctx, "POST", "/v1/agent/status", apitype.StatusRequest{Status: status}, nil)
}

// AgentTask returns the session's own task and its history.
func (c *Client) AgentTask(ctx context.Context) (apitype.TaskDetail, error) {
	var out apitype.TaskDetail
	err := c.do(ctx, "GET", "/v1/agent/task", nil, &out)
	return out, err
}

// AgentHook forwards one of the agent CLI's hooks (the fields the station
// reads); it is evidence of life and may say the agent waits for a person.
func (c *Client) AgentHook(ctx context.Context, h supervisor.HookEvent) error {
	return c.do(ctx, "POST", "/v1/agent/hook", h, nil)
}

// AgentReview settles a review session: verdict "approve" or "changes"
// (which needs notes saying what must change).
func (c *Client) AgentReview(ctx context.Context, verdict, notes string) error {
	return c.do(ctx, "POST", "/v1/agent/review", apitype.ReviewRequest{Verdict: verdict, Notes: notes}, nil)
}
