package cli

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor/client"
	"github.com/buildstation/buildstation/supervisor/config"
)

// projectRmOptions are `project rm`'s.
type projectRmOptions struct {
	*env
	Name string
}

func init() { subcommand("project", newProjectRmCmd) }

func newProjectRmCmd(e *env, runF func(*projectRmOptions) error) *cobra.Command {
	o := &projectRmOptions{env: e}
	return &cobra.Command{Use: "rm NAME", Short: "Remove a project from config.toml (its folder and tasks stay)",
		Long:              "Remove a project's [[projects]] table from config.toml (the rest of the file\nand its comments stay). Its folder is not touched, and its tasks stay on the\nboard. A project with a session running is refused: cancel its task or wait.",
		Example:           "  buildstation project rm web",
		Args:              positional(1, 1),
		ValidArgsFunction: e.completeProjects,
		RunE:              runE(o, firstArg(&o.Name), runF, projectRmRun)}
}

// projectRmRun has the running station remove the project, or edits
// config.toml itself when no station runs.
func projectRmRun(o *projectRmOptions) error {
	c, err := o.client()
	switch {
	case errors.Is(err, client.ErrNoStation):
		err = o.offline()
	case err == nil:
		err = c.RemoveProject(o.ctx, o.Name)
	}
	if err != nil {
		return err
	}
	return o.printf("removed project %s from config.toml (its folder and its tasks on the board are left as they are)\n", textsafe.Line(o.Name))
}

func (o *projectRmOptions) offline() error {
	home, err := config.Home(o.home)
	if err != nil {
		return err
	}
	cur, err := config.Load(home, config.Platform{})
	if err != nil {
		return err
	}
	data, err := os.ReadFile(cur.Path)
	if err != nil {
		return fmt.Errorf("read %s: %w", cur.Path, err)
	}
	out, _, err := config.RemoveProject(cur.Path, data, o.Name, cur.Platform)
	if err != nil {
		return err
	}
	return config.WriteFile(cur.Path, out)
}
