package cli

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor/client"
)

// agentProgressOptions are `agent progress`'s.
type agentProgressOptions struct {
	*env
	Message string
}

func init() { subcommand("agent", newAgentProgressCmd) }

func newAgentProgressCmd(e *env, runF func(*agentProgressOptions) error) *cobra.Command {
	o := &agentProgressOptions{env: e}
	return &cobra.Command{Use: "progress TEXT...", Short: "Report progress (a sign of life the watchdog counts)",
		Example: `  buildstation agent progress "migrations done, running the test suite"`,
		Args:    positional(1, -1),
		RunE: runE(o, func(_ *cobra.Command, args []string) error {
			o.Message = strings.Join(args, " ")
			return nil
		}, runF, agentProgressRun)}
}

func agentProgressRun(o *agentProgressOptions) error {
	if strings.TrimSpace(o.Message) == "" {
		return usagef("agent progress needs a message")
	}
	return o.report("", func(ctx context.Context, c *client.Client) error { return c.AgentProgress(ctx, o.Message) })
}
