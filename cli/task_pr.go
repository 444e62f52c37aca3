package cli

import (
	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor/client"
)

// taskPrOptions are `task pr`'s.
type taskPrOptions struct {
	*env
	ID string
}

func init() { subcommand("task", newTaskPrCmd) }

func newTaskPrCmd(e *env, runF func(*taskPrOptions) error) *cobra.Command {
	o := &taskPrOptions{env: e}
	return &cobra.Command{
		Use:   "pr ID",
		Short: "Open a pull request for a done task on its project's GitHub source, and print its URL",
		Long: `Open a pull request for a done task whose work is not merged yet: its branch
is pushed to the project's remote (remote = "origin" in its [[projects]]
table) and the pull request opened against the repository's default branch
on the project's GitHub source ([[sources]], docs/sources.md), with the
agent's summary. A task that has one already prints its URL again.`,
		Example: `  buildstation task diff t3 --stat
  buildstation task pr t3`,
		Args:              positional(1, 1),
		ValidArgsFunction: e.completeTasks,
		RunE:              runE(o, firstArg(&o.ID), runF, taskPrRun),
	}
}

func taskPrRun(o *taskPrOptions) error {
	return ask(o.env, func(c *client.Client) (string, error) { return c.PullRequest(o.ctx, o.ID) }, func(url string) error {
		return o.printf("%s\n", textsafe.Line(url))
	})
}
