package cli

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor"
)

// taskLsOptions are `task ls`'s.
type taskLsOptions struct {
	*env
	State, Project, After string
	Limit                 int
	LimitGiven            bool // --limit was passed (perhaps 0)
	All, JSON             bool
}

func init() { subcommand("task", newTaskLsCmd) }

func newTaskLsCmd(e *env, runF func(*taskLsOptions) error) *cobra.Command {
	o := &taskLsOptions{env: e}
	c := &cobra.Command{
		Use:   "ls",
		Short: "List the newest 100 tasks, oldest first (--all: every one)",
		Example: `  buildstation task ls
  buildstation task ls --all
  buildstation task ls --state blocked --project web
  buildstation task ls --limit 50 --after t120   # the next page after t120
  buildstation task ls --json | jq -r '.[] | select(.state=="done") | .id'`,
		Args: positional(0, 0),
		RunE: runE(o, func(c *cobra.Command, _ []string) error {
			o.LimitGiven = c.Flags().Changed("limit")
			return nil
		}, runF, taskLsRun),
	}
	f := c.Flags()
	f.StringVar(&o.State, "state", "", "only tasks in this `state` ("+taskStates()+")")
	f.StringVar(&o.Project, "project", "", "only tasks of this `project`")
	f.IntVar(&o.Limit, "limit", 0, "at most `n` tasks from the oldest (or from --after) on (0: all)")
	f.BoolVar(&o.All, "all", false, "every task, oldest first")
	f.StringVar(&o.After, "after", "", "only tasks after this task `id` (the last of the previous page)")
	f.BoolVar(&o.JSON, "json", false, "print a JSON array")
	_ = c.RegisterFlagCompletionFunc("state", fixedCompletions(strings.Split(taskStates(), ", ")...))
	_ = c.RegisterFlagCompletionFunc("project", e.completeProjectFlag)
	return c
}

// lsDefault is how many tasks a bare `task ls` shows: the newest.
const lsDefault = 100

func taskLsRun(o *taskLsOptions) error {
	st := supervisor.TaskState(o.State)
	switch {
	case o.All && o.LimitGiven:
		return usagef("--all and --limit contradict each other; pass one of them")
	case st != "" && !st.Valid():
		return usagef("unknown --state %q; use one of %s", o.State, taskStates())
	case o.Limit < 0 && !o.All:
		return usagef("--limit %d is not a number of tasks; use a whole number, 0 for all", o.Limit)
	}
	c, err := o.client()
	if err != nil {
		return err
	}
	filter := supervisor.TaskFilter{State: st, Project: o.Project, Limit: o.Limit, After: o.After}
	if !o.All && !o.LimitGiven && o.After == "" {
		// A bare `task ls`: the newest lsDefault tasks, oldest first, and
		// a line on stderr when older ones are left out.
		filter.Limit, filter.Newest = lsDefault, true
		tasks, next, err := c.TasksPage(o.ctx, filter)
		if err != nil {
			return err
		}
		slices.Reverse(tasks)
		if err := o.printTasks(tasks); err != nil || o.JSON || next == "" {
			return err
		}
		_, err = fmt.Fprintf(o.stderr, "the newest %d tasks; older ones: --all, or --limit N [--after ID]\n", lsDefault)
		return err
	}
	if o.All {
		filter.Limit = 0
	}
	tasks, err := c.Tasks(o.ctx, filter)
	if err != nil {
		return err
	}
	if err := o.printTasks(tasks); err != nil || o.JSON {
		return err
	}
	if filter.Limit > 0 && len(tasks) == filter.Limit {
		_, err = fmt.Fprintf(o.stderr, "more may follow: add --after %s for the next page\n", tasks[len(tasks)-1].ID)
	}
	return err
}

// printTasks prints tasks as a table, or as a JSON array.
func (o *taskLsOptions) printTasks(tasks []supervisor.Task) error {
	if o.JSON {
		return printJSONList(o.stdout, tasks)
	}
	t := newTable(o.stdout, "ID", "PROJECT", "STATE", "ATTEMPT", "TITLE", "REASON")
	for _, tk := range tasks {
		reason := tk.Reason
		if pin := tk.PinNote(); pin != "" {
			reason = strings.TrimPrefix(reason+"; "+pin, "; ")
		}
		t.row(tk.ID, tk.Project, string(tk.State), strconv.Itoa(tk.Attempt), tk.Title, reason)
	}
	return t.flush()
}

func taskStates() string {
	names := make([]string, len(supervisor.TaskStates))
	for i, s := range supervisor.TaskStates {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}
