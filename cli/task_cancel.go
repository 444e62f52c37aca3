package cli

import (
	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/client"
)

// taskCancelOptions are `task cancel`'s.
type taskCancelOptions struct {
	*env
	ID string
}

func init() { subcommand("task", newTaskCancelCmd) }

func newTaskCancelCmd(e *env, runF func(*taskCancelOptions) error) *cobra.Command {
	o := &taskCancelOptions{env: e}
	return &cobra.Command{
		Use:               "cancel ID",
		Short:             "Cancel a task (its session, if any, is ended; its work stays on its branch)",
		Example:           "  buildstation task cancel t3",
		Args:              positional(1, 1),
		ValidArgsFunction: e.completeTasks,
		RunE:              runE(o, firstArg(&o.ID), runF, taskCancelRun),
	}
}

func taskCancelRun(o *taskCancelOptions) error {
	return ask(o.env, func(c *client.Client) (supervisor.Task, error) { return c.Cancel(o.ctx, o.ID) }, func(t supervisor.Task) error {
		return o.printf("%s %s\n", textsafe.Line(t.ID), textsafe.Line(string(t.State)))
	})
}
