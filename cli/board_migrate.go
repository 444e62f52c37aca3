package cli

import (
	"fmt"

	"github.com/spf13/cobra"
)

func init() { subcommand("board", newBoardMigrateCmd) }

func newBoardMigrateCmd(e *env, runF func(*boardOptions) error) *cobra.Command {
	return newBoardJSONCmd(e, runF, boardMigrateRun, "migrate", "Bring the board to this build's schema and print its version", "  buildstation board migrate")
}

func boardMigrateRun(o *boardOptions) error {
	e, asJSON := o.env, o.JSON
	home, cfg, b, err := e.boardOpener()
	if err != nil {
		return err
	}
	r, err := b.Migrate(e.ctx, home, cfg)
	if err != nil {
		return err
	}
	if asJSON {
		return printJSON(e.stdout, r)
	}
	fmt.Fprintf(e.stdout, "%s: schema version %d\n", describeBoard(r), r.Version)
	return nil
}
