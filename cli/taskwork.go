package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
)

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

func (e *env) taskDiffCmd() *cobra.Command {
	var stat, raw bool
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
		RunE: func(_ *cobra.Command, args []string) error {
			c, err := e.client()
			if err != nil {
				return err
			}
			d, err := c.TaskDiff(e.ctx, args[0], stat)
			if err != nil {
				return err
			}
			if d == "" {
				_, err = fmt.Fprintf(e.stderr, "task %s has no committed changes\n", textsafe.Line(args[0]))
				return err
			}
			if !raw {
				d = textsafe.Printable(d)
			}
			_, err = io.WriteString(e.stdout, strings.TrimRight(d, "\n")+"\n")
			return err
		},
	}
	c.Flags().BoolVar(&stat, "stat", false, "only the files changed and a summary")
	c.Flags().BoolVar(&raw, "raw", false, "the bytes as they are, escape sequences included")
	return c
}

func (e *env) taskAcceptCmd() *cobra.Command {
	var note string
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
		RunE: func(_ *cobra.Command, args []string) error {
			c, err := e.client()
			if err != nil {
				return err
			}
			t, err := c.Accept(e.ctx, args[0], note)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(e.stdout, "%s done (%s)\n", textsafe.Line(t.ID), textsafe.Line(t.Reason))
			return err
		},
	}
	c.Flags().StringVar(&note, "note", "", "why you accept it, kept on the task")
	return c
}

func (e *env) taskMergeCmd() *cobra.Command {
	var into string
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
		RunE: func(_ *cobra.Command, args []string) error {
			c, err := e.client()
			if err != nil {
				return err
			}
			m, err := c.Merge(e.ctx, args[0], into)
			if err != nil {
				return err
			}
			how := "merge commit"
			switch {
			case m.Already:
				how = "it was there already"
			case m.FastForward:
				how = "fast-forward"
			}
			_, err = fmt.Fprintf(e.stdout, "%s merged into %s at %s (%s)\n", textsafe.Line(args[0]), textsafe.Line(m.Into), supervisor.ShortSHA(m.Commit), how)
			return err
		},
	}
	c.Flags().StringVar(&into, "into", "", "the `branch` to take the work into (default: the project's start branch)")
	return c
}
