package client

import (
	"context"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// Status returns the station's counts.
func (c *Client) Status(ctx context.Context) (supervisor.Status, error) {
	var out supervisor.Status
	err := c.do(ctx, "GET", "/v1/status", nil, &out)
	return out, err
}

// RequestStop asks the station to drain, then stop, as a first Ctrl-C
// does, and returns what it says happens now.
func (c *Client) RequestStop(ctx context.Context) (string, error) {
	var out apitype.StopAnswer
	err := c.do(ctx, "POST", "/v1/station/stop", nil, &out)
	return out.Message, err
}

// AgentCLIs lists the agent CLIs found on the station's machine.
func (c *Client) AgentCLIs(ctx context.Context) ([]supervisor.AgentCLI, error) {
	out := []supervisor.AgentCLI{}
	err := c.do(ctx, "GET", "/v1/agents", nil, &out)
	return out, err
}

// AgentNames lists the built-in agents the station can run, by name
// (found on its machine or not).
func (c *Client) AgentNames(ctx context.Context) ([]string, error) {
	var out []supervisor.AgentCLI
	if err := c.do(ctx, "GET", "/v1/agents?known=1", nil, &out); err != nil {
		return nil, err
	}
	names := make([]string, len(out))
	for i, a := range out {
		names[i] = a.Name
	}
	return names, nil
}
