package cli

import (
	"strconv"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/client"
)

// projectShowOptions are `project show`'s.
type projectShowOptions struct {
	*env
	Name string
	JSON bool
}

func init() { subcommand("project", newProjectShowCmd) }

func newProjectShowCmd(e *env, runF func(*projectShowOptions) error) *cobra.Command {
	o := &projectShowOptions{env: e}
	c := &cobra.Command{Use: "show NAME", Short: "One project: its folder, agent, effective windows, slots, queue, paused or not",
		Example:           "  buildstation project show web\n  buildstation project show web --json | jq .queued",
		Args:              positional(1, 1),
		ValidArgsFunction: e.completeProjects,
		RunE:              runE(o, firstArg(&o.Name), runF, projectShowRun)}
	c.Flags().BoolVar(&o.JSON, "json", false, "print a JSON object")
	return c
}

// projectShowRun prints one project, a line per field.
func projectShowRun(o *projectShowOptions) error {
	return ask(o.env, func(c *client.Client) (supervisor.ProjectInfo, error) { return c.Project(o.ctx, o.Name) }, func(p supervisor.ProjectInfo) error {
		if o.JSON {
			return printJSON(o.stdout, p)
		}
		paused := "no"
		if p.Paused {
			paused = "yes: " + p.PauseReason
		}
		t := newTable(o.stdout)
		for _, kv := range [][2]string{{"name", p.Name}, {"path", p.Path}, {"agent", p.Agent}, {"gate", p.Gate},
			{"idle_window", supervisor.SpokenText(p.IdleWindow)}, {"block_window", supervisor.SpokenText(p.BlockWindow)},
			{"review_idle_window", supervisor.SpokenText(p.ReviewIdleWindow)},
			{"review", strconv.FormatBool(p.Review)}, {"concurrency", strconv.Itoa(p.Concurrency)},
			{"running", strconv.Itoa(p.Running)}, {"queued", strconv.Itoa(p.Queued)}, {"paused", paused}} {
			t.row(kv[0]+":", kv[1])
		}
		return t.flush()
	})
}
