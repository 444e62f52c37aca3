package cli

import (
	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor/client"
)

// projectResumeOptions are `project resume`'s.
type projectResumeOptions struct {
	*env
	Name string
}

func init() { subcommand("project", newProjectResumeCmd) }

func newProjectResumeCmd(e *env, runF func(*projectResumeOptions) error) *cobra.Command {
	o := &projectResumeOptions{env: e}
	return &cobra.Command{Use: "resume NAME", Short: "Start a paused project's tasks again (also after its breaker tripped)",
		Example:           "  buildstation project resume web",
		Args:              positional(1, 1),
		ValidArgsFunction: e.completeProjects,
		RunE:              runE(o, firstArg(&o.Name), runF, projectResumeRun)}
}

func projectResumeRun(o *projectResumeOptions) error {
	return tell(o.env, func(c *client.Client) error { return c.Resume(o.ctx, o.Name) }, o.Name+" resumed")
}
