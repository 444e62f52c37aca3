package cli

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor/client"
)

// agentBlockOptions are `agent block`'s.
type agentBlockOptions struct {
	*env
	Reason string
}

func newAgentBlockCmd(e *env, runF func(*agentBlockOptions) error) *cobra.Command {
	o := &agentBlockOptions{env: e}
	c := &cobra.Command{Use: "block --reason TEXT", Short: "Report the task blocked on something only a person can do",
		Example: `  buildstation agent block --reason "needs an API key for the staging server"`,
		Args:    positional(0, 0),
		RunE:    runE(o, nil, runF, agentBlockRun)}
	c.Flags().StringVar(&o.Reason, "reason", "", "what a person must do to unblock the task")
	return c
}

func agentBlockRun(o *agentBlockOptions) error {
	if strings.TrimSpace(o.Reason) == "" {
		return usagef("agent block needs --reason saying what a person must do")
	}
	return o.report("report the task blocked", func(ctx context.Context, c *client.Client) error { return c.AgentBlock(ctx, o.Reason) })
}
