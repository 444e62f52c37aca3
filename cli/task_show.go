package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
	"github.com/buildstation/buildstation/supervisor/client"
)

// taskShowOptions are `task show`'s.
type taskShowOptions struct {
	*env
	ID   string
	JSON bool
}

func init() { subcommand("task", newTaskShowCmd) }

func newTaskShowCmd(e *env, runF func(*taskShowOptions) error) *cobra.Command {
	o := &taskShowOptions{env: e}
	c := &cobra.Command{
		Use:   "show ID",
		Short: "Show a task, its branch and commits, the gate's verdict and its history",
		Example: `  buildstation task show t3
  buildstation task show t3 --json | jq .history`,
		Args:              positional(1, 1),
		ValidArgsFunction: e.completeTasks,
		RunE:              runE(o, firstArg(&o.ID), runF, taskShowRun),
	}
	c.Flags().BoolVar(&o.JSON, "json", false, "print the task and its history as JSON")
	return c
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

func taskShowRun(o *taskShowOptions) error {
	return ask(o.env, func(c *client.Client) (apitype.TaskDetail, error) { return c.Task(o.ctx, o.ID) }, func(d apitype.TaskDetail) error {
		if d.History == nil {
			d.History = []supervisor.Transition{}
		}
		if o.JSON {
			return printJSON(o.stdout, taskWithHistory{Task: d.Task, TaskWork: d.Work, History: d.History, CostUSD: d.CostUSD})
		}
		return printTask(o.stdout, d)
	})
}

func printTask(w io.Writer, d apitype.TaskDetail) error {
	t := d.Task
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

// printWork is task show's part on the task's branch.
func printWork(w io.Writer, wk *supervisor.TaskWork) {
	if wk == nil {
		return
	}
	line := textsafe.Line
	fmt.Fprintf(w, "branch:   %s (base %s, head %s)\n", line(wk.Branch), supervisor.ShortSHA(wk.Base), supervisor.ShortSHA(wk.Head))
	if m := wk.Merged; m != nil {
		fmt.Fprintf(w, "merged:   into %s at %s (%s)\n", line(m.Into), m.At.Local().Format(time.DateTime), supervisor.ShortSHA(m.Commit))
	}
	if wk.DiffStat != "" {
		fmt.Fprintf(w, "changes:  %s\n", line(wk.DiffStat))
	}
	if wk.Gate != nil {
		verdict := "fails"
		if wk.Gate.Passed {
			verdict = "passes"
		}
		g := fmt.Sprintf("%s on %s", verdict, supervisor.ShortSHA(wk.Gate.Commit))
		if !wk.Gate.CheckedAt.IsZero() {
			g += ", checked " + wk.Gate.CheckedAt.Local().Format(time.DateTime)
		}
		fmt.Fprintf(w, "gate:     %s\n", g)
	}
	if s := wk.Setup; s != nil {
		fmt.Fprintf(w, "setup:    %s\n", setupLine(*s))
	}
	for i, c := range wk.Commits {
		label := "commits:"
		if i > 0 {
			label = ""
		}
		fmt.Fprintf(w, "%-9s %s\n", label, line(c))
	}
}

// setupLine says how a task's worktree was readied and how long it took:
// "`npm ci` ok in 42s; .worktreeinclude: 2 entries (cloned)".
func setupLine(s supervisor.SetupRun) string {
	var parts []string
	if s.Command != "" {
		verdict := "ok in"
		switch {
		case s.TimedOut:
			verdict = "timed out after"
		case !s.OK:
			verdict = "failed after"
		}
		parts = append(parts, fmt.Sprintf("`%s` %s %s", textsafe.Line(s.Command), verdict, s.Took.Round(100*time.Millisecond)))
	}
	if n := len(s.Copied); n > 0 {
		parts = append(parts, fmt.Sprintf(".worktreeinclude: %d brought in (%s)", n, s.How))
	}
	return strings.Join(parts, "; ")
}
