package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor/apitype"
	"github.com/buildstation/buildstation/supervisor/client"
)

// agentCmd is `agent`; each of its commands is in agent_<verb>.go.
func (e *env) agentCmd() *cobra.Command {
	return group("agent", "Report from inside a session (what agents and their hooks run)",
		"These run inside a session: they reach the station through BUILDSTATION_URL\nwith the session's own token (BUILDSTATION_TOKEN), which acts on its own\ntask only. Agents with the station's MCP tools may call those instead.",
		"  buildstation agent progress \"half the tests pass\"\n  buildstation agent complete --summary \"done: see the commits\"",
		newAgentCompleteCmd(e, nil),
		newAgentBlockCmd(e, nil),
		newAgentProgressCmd(e, nil),
		newAgentStatusCmd(e, nil),
		newAgentReviewCmd(e, nil),
		newAgentHookCmd(e, nil),
	)
}

// report is an agent verb: it reaches the station through
// BUILDSTATION_URL, acts with the session's own token, and makes one
// report; retried (e.retry) when what says what it is.
func (e *env) report(what string, call func(context.Context, *client.Client) error) error {
	c, err := client.FromEnv()
	if err != nil {
		return err
	}
	if what == "" {
		return call(e.ctx, c)
	}
	return e.retry(what, func(ctx context.Context) error { return call(ctx, c) })
}

// agentDeadline is how long an agent's report is retried while the station
// restarts or its shared board does not answer.
var agentDeadline = 2 * time.Minute

// retry runs call until it succeeds, fails for good (the station refused
// it: a 4xx says why), or agentDeadline passes, waiting longer after each
// try, and says on stderr what it is doing, so the agent (and the person
// reading its console) knows the report is not lost yet.
func (e *env) retry(what string, call func(ctx context.Context) error) error {
	deadline := time.Now().Add(agentDeadline)
	wait := 500 * time.Millisecond
	for {
		err := call(e.ctx)
		var ae *apitype.Error
		if err == nil || errors.As(err, &ae) && ae.Status != http.StatusServiceUnavailable && ae.Status != http.StatusBadGateway && ae.Status != http.StatusGatewayTimeout {
			return err
		}
		if e.ctx.Err() != nil {
			return err
		}
		if time.Now().Add(wait).After(deadline) {
			return fmt.Errorf("could not %s within %v, the last try said: %w; run the same command again", what, agentDeadline, err)
		}
		fmt.Fprintf(e.stderr, "buildstation: could not %s yet (%v); retrying in %v, until %s\n",
			what, err, wait, deadline.Format("15:04:05"))
		select {
		case <-e.ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait = min(wait*2, 5*time.Second)
	}
}
