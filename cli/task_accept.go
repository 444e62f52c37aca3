package cli

import (
	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/client"
)

// taskAcceptOptions are `task accept`'s.
type taskAcceptOptions struct {
	*env
	ID, Note string
}

func init() { subcommand("task", newTaskAcceptCmd) }

func newTaskAcceptCmd(e *env, runF func(*taskAcceptOptions) error) *cobra.Command {
	o := &taskAcceptOptions{env: e}
	c := &cobra.Command{
		Use:   "accept ID [--note TEXT]",
		Short: "Mark a blocked or reviewed task done, as your decision after looking at its work",
		Long: `Mark a blocked task, or one waiting in review, done: for when you looked at
its work (task show, task diff) and it is what you wanted, whatever the
agent said. The history records it as a person's decision, with the gate's
verdict on the branch's head as it stands.`,
		Example: `  buildstation task diff t3 --stat
  buildstation task accept t3 --note "the failing test is flaky upstream"`,
		Args:              positional(1, 1),
		ValidArgsFunction: e.completeTasks,
		RunE:              runE(o, firstArg(&o.ID), runF, taskAcceptRun),
	}
	c.Flags().StringVar(&o.Note, "note", "", "why you accept it, kept on the task")
	return c
}

func taskAcceptRun(o *taskAcceptOptions) error {
	return ask(o.env, func(c *client.Client) (supervisor.Task, error) { return c.Accept(o.ctx, o.ID, o.Note) }, func(t supervisor.Task) error {
		return o.printf("%s done (%s)\n", textsafe.Line(t.ID), textsafe.Line(t.Reason))
	})
}
