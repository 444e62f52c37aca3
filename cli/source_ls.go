package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/client"
)

// sourceLsOptions are `source ls`'s.
type sourceLsOptions struct {
	*env
	JSON bool
}

func init() { subcommand("source", newSourceLsCmd) }

func newSourceLsCmd(e *env, runF func(*sourceLsOptions) error) *cobra.Command {
	o := &sourceLsOptions{env: e}
	c := &cobra.Command{Use: "ls", Short: "Each source's state: its project, its last poll, its problem if any",
		Example: "  buildstation source ls\n  buildstation source ls --json | jq '.[] | select(.ok | not)'",
		Args:    positional(0, 0),
		RunE:    runE(o, nil, runF, sourceLsRun)}
	c.Flags().BoolVar(&o.JSON, "json", false, "print a JSON array")
	return c
}

func sourceLsRun(o *sourceLsOptions) error {
	return ask(o.env, func(c *client.Client) (supervisor.Status, error) { return c.Status(o.ctx) }, o.print)
}

func (o *sourceLsOptions) print(st supervisor.Status) error {
	e := o.env
	if o.JSON {
		return printJSONList(e.stdout, st.Sources)
	}
	if len(st.Sources) == 0 {
		fmt.Fprintln(e.stdout, "no sources: add a [[sources]] table to config.toml (docs/sources.md)")
		return nil
	}
	t := newTable(e.stdout, "SOURCE", "PROJECT", "TASKS", "OWED", "CHECKED", "STATE")
	var problems []string
	for _, s := range st.Sources {
		checked := "never"
		if !s.Checked.IsZero() {
			checked = s.Checked.Local().Format(time.TimeOnly)
		}
		state := "ok"
		switch {
		case s.Problem != "":
			state = "see below"
			problems = append(problems, textsafe.Line(s.Problem))
		case !s.OK:
			state = "not polled yet"
		}
		t.row(s.Name, s.Project, fmt.Sprint(s.Tasks), fmt.Sprint(s.Owed), checked, state)
		if s.Note != "" {
			problems = append(problems, textsafe.Line(s.Name+": "+s.Note))
		}
	}
	if err := t.flush(); err != nil {
		return err
	}
	for _, p := range problems {
		fmt.Fprintln(e.stdout, p)
	}
	return nil
}
