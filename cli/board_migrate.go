package cli

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newBoardMigrateCmd(e *env, runF func(*boardOptions) error) *cobra.Command {
	return newBoardJSONCmd(e, runF, boardMigrateRun, "migrate", "Bring the board to this build's schema and print its version", "  buildstation board migrate")
}

// boardOptions are `board migrate`'s and `board status`'s.
type boardOptions struct {
	*env
	JSON bool
}

// newBoardJSONCmd is a board verb whose one flag is --json.
func newBoardJSONCmd(e *env, runF func(*boardOptions) error, run func(*boardOptions) error, use, short, example string) *cobra.Command {
	o := &boardOptions{env: e}
	c := &cobra.Command{Use: use, Short: short, Example: example, Args: positional(0, 0),
		RunE: runE(o, nil, runF, run)}
	c.Flags().BoolVar(&o.JSON, "json", false, "print the result as a JSON object")
	return c
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
