package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor/client"
)

// agentStatusOptions are `agent status`'s.
type agentStatusOptions struct {
	*env
	Status string // working or reviewing
}

func init() { subcommand("agent", newAgentStatusCmd) }

func newAgentStatusCmd(e *env, runF func(*agentStatusOptions) error) *cobra.Command {
	o := &agentStatusOptions{env: e}
	return &cobra.Command{Use: "status working|reviewing", Short: "Say whether the session is coding or reviewing",
		Example:   "  buildstation agent status reviewing",
		Args:      positional(1, 1),
		ValidArgs: []string{"working", "reviewing"},
		RunE:      runE(o, firstArg(&o.Status), runF, agentStatusRun)}
}

func agentStatusRun(o *agentStatusOptions) error {
	if o.Status != "working" && o.Status != "reviewing" {
		return usagef("unknown status %q; use working or reviewing", o.Status)
	}
	return o.report("", func(ctx context.Context, c *client.Client) error { return c.AgentStatus(ctx, o.Status) })
}
