package cli

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor/client"
)

// agentCompleteOptions are `agent complete`'s.
type agentCompleteOptions struct {
	*env
	Summary string
}

func newAgentCompleteCmd(e *env, runF func(*agentCompleteOptions) error) *cobra.Command {
	o := &agentCompleteOptions{env: e}
	c := &cobra.Command{Use: "complete --summary TEXT", Short: "Report the task done (it moves to review or done)",
		Example: `  buildstation agent complete --summary "Fixed the login race; added a test"`,
		Args:    positional(0, 0),
		RunE:    runE(o, nil, runF, agentCompleteRun)}
	c.Flags().StringVar(&o.Summary, "summary", "", "what was done, for the reviewer")
	return c
}

func agentCompleteRun(o *agentCompleteOptions) error {
	if strings.TrimSpace(o.Summary) == "" {
		return usagef("agent complete needs --summary saying what was done")
	}
	return o.report("report the task done", func(ctx context.Context, c *client.Client) error { return c.AgentComplete(ctx, o.Summary) })
}
