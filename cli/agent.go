package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor/apitype"
	"github.com/buildstation/buildstation/supervisor/client"
)

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
		if err == nil || errors.As(err, &ae) && ae.Status != 503 && ae.Status != 502 && ae.Status != 504 { // (HTTP) unavailable, bad gateway, gateway timeout: try again
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

// agentReportOptions are `agent complete`'s and `agent block`'s: the one
// text their report carries, given with a flag.
type agentReportOptions struct {
	*env
	Text string
	// The verb's own: its flag, what the flag must say, what a retry
	// names, and the client's call ((*client.Client).AgentComplete).
	verb, flag, need, what string
	call                   func(c *client.Client, ctx context.Context, text string) error
}

// newAgentReportCmd is `agent complete` or `agent block`.
func newAgentReportCmd(e *env, runF func(*agentReportOptions) error, o *agentReportOptions, short, example, flagHelp string) *cobra.Command {
	o.env = e
	c := &cobra.Command{Use: o.verb + " --" + o.flag + " TEXT", Short: short, Example: example,
		Args: positional(0, 0),
		RunE: runE(o, nil, runF, agentReportRun)}
	c.Flags().StringVar(&o.Text, o.flag, "", flagHelp)
	return c
}

func agentReportRun(o *agentReportOptions) error {
	if strings.TrimSpace(o.Text) == "" {
		return usagef("agent %s needs --%s saying %s", o.verb, o.flag, o.need)
	}
	return o.report(o.what, func(ctx context.Context, c *client.Client) error { return o.call(c, ctx, o.Text) })
}
