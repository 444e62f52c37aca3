package cli

import (
	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/client"
)

// taskMergeOptions are `task merge`'s.
type taskMergeOptions struct {
	*env
	ID, Into string
}

func init() { subcommand("task", newTaskMergeCmd) }

func newTaskMergeCmd(e *env, runF func(*taskMergeOptions) error) *cobra.Command {
	o := &taskMergeOptions{env: e}
	c := &cobra.Command{
		Use:   "merge ID [--into BRANCH]",
		Short: "Take a task's branch into a branch of its project (fast-forward or a merge commit)",
		Long: `Take a task's branch into a branch of its project: by default the branch new
worktrees start from (the project's base, else the branch checked out in
the project folder). It fast-forwards when it can, else it makes a merge
commit. A conflict is refused with the files named, and nothing changes; a
target branch checked out with uncommitted changes is refused too.`,
		Example: `  buildstation task merge t3
  buildstation task merge t3 --into release`,
		Args:              positional(1, 1),
		ValidArgsFunction: e.completeTasks,
		RunE:              runE(o, firstArg(&o.ID), runF, taskMergeRun),
	}
	c.Flags().StringVar(&o.Into, "into", "", "the `branch` to take the work into (default: the project's start branch)")
	return c
}

func taskMergeRun(o *taskMergeOptions) error {
	return ask(o.env, func(c *client.Client) (supervisor.Merged, error) { return c.Merge(o.ctx, o.ID, o.Into) }, func(m supervisor.Merged) error {
		how := "merge commit"
		switch {
		case m.Already:
			how = "it was there already"
		case m.FastForward:
			how = "fast-forward"
		}
		return o.printf("%s merged into %s at %s (%s)\n", textsafe.Line(o.ID), textsafe.Line(m.Into), supervisor.ShortSHA(m.Commit), how)
	})
}
