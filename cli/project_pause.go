package cli

import (
	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor/client"
)

// projectPauseOptions are `project pause`'s.
type projectPauseOptions struct {
	*env
	Name, Reason string
}

func init() { subcommand("project", newProjectPauseCmd) }

func newProjectPauseCmd(e *env, runF func(*projectPauseOptions) error) *cobra.Command {
	o := &projectPauseOptions{env: e}
	c := &cobra.Command{Use: "pause NAME", Short: "Stop starting a project's tasks (running sessions go on)",
		Example:           "  buildstation project pause web --reason \"CI is down\"",
		Args:              positional(1, 1),
		ValidArgsFunction: e.completeProjects,
		RunE:              runE(o, firstArg(&o.Name), runF, projectPauseRun)}
	c.Flags().StringVar(&o.Reason, "reason", "", "why, shown in the tray and status")
	return c
}

func projectPauseRun(o *projectPauseOptions) error {
	return tell(o.env, func(c *client.Client) error { return c.Pause(o.ctx, o.Name, o.Reason) }, o.Name+" paused")
}
