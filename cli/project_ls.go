package cli

import (
	"strconv"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/client"
)

// projectLsOptions are `project ls`'s.
type projectLsOptions struct {
	*env
	JSON bool
}

func init() { subcommand("project", newProjectLsCmd) }

func newProjectLsCmd(e *env, runF func(*projectLsOptions) error) *cobra.Command {
	o := &projectLsOptions{env: e}
	c := &cobra.Command{Use: "ls", Short: "Projects, their effective windows, slots, queue, paused or not",
		Example: "  buildstation project ls\n  buildstation project ls --json | jq '.[] | select(.paused)'",
		Args:    positional(0, 0),
		RunE:    runE(o, nil, runF, projectLsRun)}
	c.Flags().BoolVar(&o.JSON, "json", false, "print a JSON array")
	return c
}

func projectLsRun(o *projectLsOptions) error {
	return ask(o.env, func(c *client.Client) ([]supervisor.ProjectInfo, error) { return c.Projects(o.ctx) }, func(list []supervisor.ProjectInfo) error {
		if o.JSON {
			return printJSONList(o.stdout, list)
		}
		t := newTable(o.stdout, "NAME", "AGENT", "IDLE", "BLOCK", "REVIEW IDLE", "SLOTS", "RUNNING", "QUEUED", "PAUSED")
		for _, p := range list {
			paused := "no"
			if p.Paused {
				paused = "yes"
				if p.PauseReason != "" {
					paused += ": " + p.PauseReason
				}
			}
			t.row(p.Name, p.Agent, supervisor.SpokenText(p.IdleWindow), supervisor.SpokenText(p.BlockWindow), supervisor.SpokenText(p.ReviewIdleWindow),
				strconv.Itoa(p.Concurrency), strconv.Itoa(p.Running), strconv.Itoa(p.Queued), paused)
		}
		return t.flush()
	})
}
