package cli

import (
	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/client"
)

// taskRequeueOptions are `task requeue`'s.
type taskRequeueOptions struct {
	*env
	ID, Note string
	Anywhere bool
}

func init() { subcommand("task", newTaskRequeueCmd) }

func newTaskRequeueCmd(e *env, runF func(*taskRequeueOptions) error) *cobra.Command {
	o := &taskRequeueOptions{env: e}
	c := &cobra.Command{
		Use:   "requeue ID",
		Short: "Run a blocked (or any unfinished) task again from its last green commit",
		Long: `Requeue a task: its worktree is reset to the last green commit (everything
later is saved on a branch first) and a fresh session starts with the reason
it was blocked and your note.

On a shared board, a task pinned to another station (its work is only in
that station's worktree) is requeued at that station; --anywhere lifts the
pin when that station is gone for good, and any station starts the task
again from what the project's remote holds of it, or from its base.`,
		Example: `  buildstation task requeue t3 --note "use the v2 API, the v1 one is gone"
  buildstation task requeue t3 --anywhere   # its station is gone for good`,
		Args:              positional(1, 1),
		ValidArgsFunction: e.completeTasks,
		RunE:              runE(o, firstArg(&o.ID), runF, taskRequeueRun),
	}
	c.Flags().StringVar(&o.Note, "note", "", "a `note` for the next session")
	c.Flags().BoolVar(&o.Anywhere, "anywhere", false, "let any station start it, though it is pinned to another (that station is gone for good)")
	return c
}

func taskRequeueRun(o *taskRequeueOptions) error {
	return ask(o.env, func(c *client.Client) (supervisor.Task, error) {
		if o.Anywhere {
			return c.RequeueAnywhere(o.ctx, o.ID, o.Note)
		}
		return c.Requeue(o.ctx, o.ID, o.Note)
	}, func(t supervisor.Task) error {
		return o.printf("%s requeued (attempt %d)\n", textsafe.Line(t.ID), t.Attempt)
	})
}
