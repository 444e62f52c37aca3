package cli

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

func (e *env) taskCmd() *cobra.Command {
	return group("task", "Add, list, show, diff, accept, merge, requeue and cancel tasks",
		"A task is one piece of work for one project: the station runs an agent on it\nin its own git worktree, and moves it through todo, working, review, blocked,\ndone (or cancelled).",
		"  buildstation task add --project web --title \"Fix the login page\"\n  buildstation task ls --state blocked",
		e.taskAddCmd(), e.taskLsCmd(), e.taskShowCmd(), e.taskDiffCmd(), e.taskAcceptCmd(), e.taskMergeCmd(), e.taskRequeueCmd(), e.taskCancelCmd())
}

func (e *env) taskAddCmd() *cobra.Command {
	var project, title, body, bodyFile string
	var asJSON bool
	c := &cobra.Command{
		Use:   "add --project P --title T [--body B | --body-file F]",
		Short: "Add a task to a project's queue; prints the new id",
		Long: `Add a task to a project's queue and print its id alone on one line (--json:
the whole task). The body is the task's full text, given to the agent with
the title; --body-file - reads it from stdin.`,
		Example: `  buildstation task add --project web --title "Fix the login page"
  buildstation task add --project web --title "Upgrade" --body-file notes.md
  git log -1 --format=%B | buildstation task add --project web --title "Follow up" --body-file -`,
		Args: positional(0, 0),
		RunE: func(*cobra.Command, []string) error {
			return e.taskAdd(project, title, body, bodyFile, asJSON)
		},
	}
	f := c.Flags()
	f.StringVar(&project, "project", "", "the project `name` (see \"buildstation project ls\")")
	f.StringVar(&title, "title", "", "a one-line `title`")
	f.StringVar(&body, "body", "", "the task's full `text`")
	f.StringVar(&bodyFile, "body-file", "", "read the body from `file` (- for stdin)")
	f.BoolVar(&asJSON, "json", false, "print the task as JSON")
	_ = c.RegisterFlagCompletionFunc("project", e.completeProjectFlag)
	return c
}

func (e *env) taskAdd(project, title, body, bodyFile string, asJSON bool) error {
	switch {
	case project == "":
		return usagef(`task add needs --project; list projects with "buildstation project ls"`)
	case strings.TrimSpace(title) == "":
		return usagef("task add needs --title")
	case body != "" && bodyFile != "":
		return usagef("task add takes --body or --body-file, not both")
	}
	if bodyFile != "" {
		b, err := e.readBodyFile(bodyFile)
		if err != nil {
			return err
		}
		body = b
	}
	c, err := e.client()
	if err != nil {
		return err
	}
	t, err := c.AddTask(e.ctx, supervisor.NewTask{Project: project, Title: title, Body: body})
	if err != nil {
		return err
	}
	if asJSON {
		return printJSON(e.stdout, t)
	}
	_, err = fmt.Fprintln(e.stdout, t.ID)
	return err
}

func (e *env) readBodyFile(name string) (string, error) {
	var (
		b   []byte
		err error
	)
	if name == "-" {
		b, err = readAllLimited(e.stdin)
	} else {
		b, err = os.ReadFile(name)
	}
	if err != nil {
		return "", fmt.Errorf("read --body-file %s: %v; check the path", name, err)
	}
	return string(b), nil
}

func (e *env) taskLsCmd() *cobra.Command {
	var state, project, after string
	var limit int
	var asJSON, all bool
	var c *cobra.Command
	c = &cobra.Command{
		Use:   "ls",
		Short: "List the newest 100 tasks, oldest first (--all: every one)",
		Example: `  buildstation task ls
  buildstation task ls --all
  buildstation task ls --state blocked --project web
  buildstation task ls --limit 50 --after t120   # the next page after t120
  buildstation task ls --json | jq -r '.[] | select(.state=="done") | .id'`,
		Args: positional(0, 0),
		RunE: func(*cobra.Command, []string) error {
			if all && c.Flags().Changed("limit") {
				return usagef("--all and --limit contradict each other; pass one of them")
			}
			if !all && !c.Flags().Changed("limit") && after == "" {
				return e.taskLsNewest(state, project, asJSON)
			}
			if all {
				limit = 0
			}
			return e.taskLs(state, project, limit, after, asJSON)
		},
	}
	f := c.Flags()
	f.StringVar(&state, "state", "", "only tasks in this `state` ("+taskStates()+")")
	f.StringVar(&project, "project", "", "only tasks of this `project`")
	f.IntVar(&limit, "limit", 0, "at most `n` tasks from the oldest (or from --after) on (0: all)")
	f.BoolVar(&all, "all", false, "every task, oldest first")
	f.StringVar(&after, "after", "", "only tasks after this task `id` (the last of the previous page)")
	f.BoolVar(&asJSON, "json", false, "print a JSON array")
	_ = c.RegisterFlagCompletionFunc("state", fixedCompletions(strings.Split(taskStates(), ", ")...))
	_ = c.RegisterFlagCompletionFunc("project", e.completeProjectFlag)
	return c
}

func (e *env) taskLs(state, project string, limit int, after string, asJSON bool) error {
	st := supervisor.TaskState(state)
	if st != "" && !st.Valid() {
		return usagef("unknown --state %q; use one of %s", state, taskStates())
	}
	if limit < 0 {
		return usagef("--limit %d is not a number of tasks; use a whole number, 0 for all", limit)
	}
	c, err := e.client()
	if err != nil {
		return err
	}
	tasks, err := c.Tasks(e.ctx, supervisor.TaskFilter{State: st, Project: project, Limit: limit, After: after})
	if err != nil {
		return err
	}
	if err := e.printTasks(tasks, asJSON); err != nil || asJSON {
		return err
	}
	if limit > 0 && len(tasks) == limit {
		_, err = fmt.Fprintf(e.stderr, "more may follow: add --after %s for the next page\n", tasks[len(tasks)-1].ID)
	}
	return err
}

// lsDefault is how many tasks a bare `task ls` shows: the newest.
const lsDefault = 100

// taskLsNewest is a bare `task ls`: the newest lsDefault tasks, oldest
// first, and a line on stderr when older ones are left out.
func (e *env) taskLsNewest(state, project string, asJSON bool) error {
	st := supervisor.TaskState(state)
	if st != "" && !st.Valid() {
		return usagef("unknown --state %q; use one of %s", state, taskStates())
	}
	c, err := e.client()
	if err != nil {
		return err
	}
	tasks, next, err := c.TasksPage(e.ctx, supervisor.TaskFilter{State: st, Project: project, Limit: lsDefault, Newest: true})
	if err != nil {
		return err
	}
	slices.Reverse(tasks)
	if err := e.printTasks(tasks, asJSON); err != nil || asJSON || next == "" {
		return err
	}
	_, err = fmt.Fprintf(e.stderr, "the newest %d tasks; older ones: --all, or --limit N [--after ID]\n", lsDefault)
	return err
}

// printTasks prints tasks as a table, or as a JSON array.
func (e *env) printTasks(tasks []supervisor.Task, asJSON bool) error {
	if asJSON {
		if tasks == nil {
			tasks = []supervisor.Task{}
		}
		return printJSON(e.stdout, tasks)
	}
	t := newTable(e.stdout, "ID", "PROJECT", "STATE", "ATTEMPT", "TITLE", "REASON")
	for _, tk := range tasks {
		reason := tk.Reason
		if pin := tk.PinNote(); pin != "" {
			reason = strings.TrimPrefix(reason+"; "+pin, "; ")
		}
		t.row(tk.ID, tk.Project, string(tk.State), strconv.Itoa(tk.Attempt), tk.Title, reason)
	}
	return t.flush()
}

// taskWithHistory is `task show --json`: the task's fields, its branch's
// (branch, base, head, commits, diff_stat, gate: absent when it has none)
// and "history".
type taskWithHistory struct {
	supervisor.Task
	*supervisor.TaskWork
	History []supervisor.Transition `json:"history"`
	CostUSD float64                 `json:"cost_usd"`
}

func (e *env) taskShowCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "show ID",
		Short: "Show a task, its branch and commits, the gate's verdict and its history",
		Example: `  buildstation task show t3
  buildstation task show t3 --json | jq .history`,
		Args:              positional(1, 1),
		ValidArgsFunction: e.completeTasks,
		RunE: func(_ *cobra.Command, args []string) error {
			c, err := e.client()
			if err != nil {
				return err
			}
			d, err := c.Task(e.ctx, args[0])
			if err != nil {
				return err
			}
			if d.History == nil {
				d.History = []supervisor.Transition{}
			}
			if asJSON {
				return printJSON(e.stdout, taskWithHistory{Task: d.Task, TaskWork: d.Work, History: d.History, CostUSD: d.CostUSD})
			}
			return printTask(e, d)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the task and its history as JSON")
	return c
}

func printTask(e *env, d apitype.TaskDetail) error {
	t := d.Task
	w := e.stdout
	// Every string here is from the board: safe for the terminal.
	line := textsafe.Line
	fmt.Fprintf(w, "%s  %s\n", line(t.ID), line(t.Title))
	fmt.Fprintf(w, "project:  %s\n", line(t.Project))
	fmt.Fprintf(w, "state:    %s (attempt %d)\n", line(string(t.State)), t.Attempt)
	if t.Reason != "" {
		fmt.Fprintf(w, "reason:   %s\n", line(t.Reason))
	}
	if t.Summary != "" {
		fmt.Fprintf(w, "summary:  %s\n", line(t.Summary))
	}
	if d.CostUSD > 0 {
		fmt.Fprintf(w, "cost:     $%.2f so far\n", d.CostUSD)
	}
	if pin := t.PinNote(); pin != "" {
		fmt.Fprintf(w, "pinned:   %s\n", line(pin))
	}
	if !t.External.IsZero() {
		fmt.Fprintf(w, "issue:    %s %s\n", line(t.External.ID), line(t.External.URL))
	}
	fmt.Fprintf(w, "created:  %s\n", t.CreatedAt.Local().Format(time.DateTime))
	fmt.Fprintf(w, "updated:  %s\n", t.UpdatedAt.Local().Format(time.DateTime))
	for _, n := range t.Notes {
		fmt.Fprintf(w, "note:     %s\n", line(n))
	}
	printWork(w, d.Work)
	if t.Body != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimRight(textsafe.Printable(t.Body), "\n"))
	}
	if len(d.History) == 0 {
		return nil
	}
	fmt.Fprintln(w)
	tb := newTable(w, "AT", "FROM", "TO", "ATTEMPT", "BY", "REASON")
	for _, h := range d.History {
		tb.row(h.At.Local().Format(time.DateTime), string(h.From), string(h.To), strconv.Itoa(h.Attempt), h.Actor, h.Reason)
	}
	return tb.flush()
}

func (e *env) taskRequeueCmd() *cobra.Command {
	var note string
	var anywhere bool
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
		RunE: func(_ *cobra.Command, args []string) error {
			c, err := e.client()
			if err != nil {
				return err
			}
			requeue := c.Requeue
			if anywhere {
				requeue = c.RequeueAnywhere
			}
			t, err := requeue(e.ctx, args[0], note)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(e.stdout, "%s requeued (attempt %d)\n", textsafe.Line(t.ID), t.Attempt)
			return err
		},
	}
	c.Flags().StringVar(&note, "note", "", "a `note` for the next session")
	c.Flags().BoolVar(&anywhere, "anywhere", false, "let any station start it, though it is pinned to another (that station is gone for good)")
	return c
}

func (e *env) taskCancelCmd() *cobra.Command {
	return &cobra.Command{
		Use:               "cancel ID",
		Short:             "Cancel a task (its session, if any, is ended; its work stays on its branch)",
		Example:           "  buildstation task cancel t3",
		Args:              positional(1, 1),
		ValidArgsFunction: e.completeTasks,
		RunE: func(_ *cobra.Command, args []string) error {
			c, err := e.client()
			if err != nil {
				return err
			}
			t, err := c.Cancel(e.ctx, args[0])
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(e.stdout, "%s %s\n", textsafe.Line(t.ID), textsafe.Line(string(t.State)))
			return err
		},
	}
}

func taskStates() string {
	names := make([]string, len(supervisor.TaskStates))
	for i, s := range supervisor.TaskStates {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}
