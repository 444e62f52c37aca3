package cli

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor/client"
)

// agentReviewOptions are `agent review`'s: it settles a review session,
// for agents that have no MCP (the generic profile's review prompt names
// this command).
type agentReviewOptions struct {
	*env
	Verdict, Notes string
}

func init() { subcommand("agent", newAgentReviewCmd) }

func newAgentReviewCmd(e *env, runF func(*agentReviewOptions) error) *cobra.Command {
	o := &agentReviewOptions{env: e}
	c := &cobra.Command{Use: "review approve|changes", Short: "Settle a review session: approve, or ask for changes",
		Example: `  buildstation agent review approve --notes "tests cover the race"
  buildstation agent review changes --notes "the error message must say what to do"`,
		Args:      positional(1, 1),
		ValidArgs: []string{"approve", "changes"},
		RunE:      runE(o, firstArg(&o.Verdict), runF, agentReviewRun)}
	c.Flags().StringVar(&o.Notes, "notes", "", "why; for changes, what must change")
	return c
}

func agentReviewRun(o *agentReviewOptions) error {
	switch {
	case o.Verdict != "approve" && o.Verdict != "changes":
		return usagef("unknown verdict %q; use approve or changes", o.Verdict)
	case o.Verdict == "changes" && strings.TrimSpace(o.Notes) == "":
		return usagef("agent review changes needs --notes saying what must change")
	}
	return o.report("report the review", func(ctx context.Context, c *client.Client) error { return c.AgentReview(ctx, o.Verdict, o.Notes) })
}
