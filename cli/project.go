package cli

import (
	"github.com/spf13/cobra"
)

// projectCmd is `project`; each of its commands is in project_<verb>.go.
func (e *env) projectCmd() *cobra.Command {
	return group("project", "Add, list and remove projects, pause or resume their queues, edit their overrides",
		"Projects are the [[projects]] tables of config.toml: a folder, the agent that\nworks in it, its windows and gate.",
		"  buildstation project add ~/src/web\n  buildstation project ls\n  buildstation project pause web --reason \"release freeze\"",
		newProjectAddCmd(e, nil),
		newProjectLsCmd(e, nil),
		newProjectShowCmd(e, nil),
		newProjectPauseCmd(e, nil),
		newProjectResumeCmd(e, nil),
		newProjectSetCmd(e, nil),
		newProjectRmCmd(e, nil),
	)
}
