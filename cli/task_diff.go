package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor/client"
)

// taskDiffOptions are `task diff`'s.
type taskDiffOptions struct {
	*env
	ID        string
	Stat, Raw bool
}

func init() { subcommand("task", newTaskDiffCmd) }

func newTaskDiffCmd(e *env, runF func(*taskDiffOptions) error) *cobra.Command {
	o := &taskDiffOptions{env: e}
	c := &cobra.Command{
		Use:   "diff ID [--stat] [--raw]",
		Short: "Print a task's committed work as a diff, from its base to its branch's head",
		Long: `Print what a task's branch holds beyond the commit it started from, as git
diff does. It reads the branch, so it works after the task ended and its
worktree was removed. Uncommitted files are not part of it. An agent wrote
these bytes: escape sequences and control characters are removed, as logs
does (a file cannot set your clipboard or title or clear your screen);
--raw prints them as they are.`,
		Example: `  buildstation task diff t3
  buildstation task diff t3 --stat`,
		Args:              positional(1, 1),
		ValidArgsFunction: e.completeTasks,
		RunE:              runE(o, firstArg(&o.ID), runF, taskDiffRun),
	}
	c.Flags().BoolVar(&o.Stat, "stat", false, "only the files changed and a summary")
	c.Flags().BoolVar(&o.Raw, "raw", false, "the bytes as they are, escape sequences included")
	return c
}

func taskDiffRun(o *taskDiffOptions) error {
	return ask(o.env, func(c *client.Client) (string, error) { return c.TaskDiff(o.ctx, o.ID, o.Stat) }, func(d string) error {
		if d == "" {
			_, err := fmt.Fprintf(o.stderr, "task %s has no committed changes\n", textsafe.Line(o.ID))
			return err
		}
		if !o.Raw {
			d = textsafe.Printable(d)
		}
		return o.printf("%s\n", strings.TrimRight(d, "\n"))
	})
}
