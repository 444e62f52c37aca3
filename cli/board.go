package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

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

// The board verbs open the board config.toml names themselves (through
// Boards), not through a station: a board is migrated before any station
// runs on it, and its status matters most when a station does not answer.

// printCap says a project's settings on the board: its cap, then its
// windows when it has any.
func (e *env) printCap(c ProjectCap) {
	name := textsafe.Line(c.Project)
	switch {
	case c.Concurrency == 0 && len(c.Stations) == 0 && c.Windows() == supervisor.BoardWindows{}:
		fmt.Fprintf(e.stdout, "project %s: no board cap; each station's config decides\n", name)
		return
	case c.Concurrency > 0:
		fmt.Fprintf(e.stdout, "project %s: at most %d sessions across all stations", name, c.Concurrency)
	default:
		fmt.Fprintf(e.stdout, "project %s: as many sessions as each station's config allows", name)
	}
	if len(c.Stations) > 0 {
		fmt.Fprintf(e.stdout, ", on %s", textsafe.Line(strings.Join(c.Stations, ", ")))
	}
	fmt.Fprintln(e.stdout)
	if w := capWindows(c); w != "" {
		fmt.Fprintf(e.stdout, "project %s: watchdog windows %s (every station waits at least this long)\n", name, w)
	}
}

// capWindows writes a project's board windows as config.toml names them:
// "idle_window 15m, review_idle_window 30m"; empty when it has none.
func capWindows(c ProjectCap) string {
	var parts []string
	for _, w := range []struct {
		key string
		d   time.Duration
	}{{"idle_window", c.IdleWindow}, {"block_window", c.BlockWindow}, {"review_idle_window", c.ReviewIdleWindow}} {
		if w.d > 0 {
			parts = append(parts, w.key+" "+config.ShortDuration(w.d))
		}
	}
	return strings.Join(parts, ", ")
}

// boardConfig loads the home's config.toml, which names the board.
func (e *env) boardConfig() (string, *config.Config, error) {
	home, err := config.Home(e.home)
	if err != nil {
		return "", nil, err
	}
	// The machine's defaults (the backend) play no part in a board's
	// inspection: none are looked up.
	cfg, err := config.Load(home, config.Platform{})
	if err != nil {
		return "", nil, err
	}
	return home, cfg, nil
}

// boardOpener is boardConfig and the way to the board it names.
func (e *env) boardOpener() (string, *config.Config, BoardAccess, error) {
	home, cfg, err := e.boardConfig()
	if err != nil {
		return "", nil, nil, err
	}
	b, err := e.boards()
	return home, cfg, b, err
}

// describeBoard names a board for a person.
func describeBoard(r BoardReport) string {
	if r.Kind == "postgres" {
		return "shared board at " + textsafe.Line(r.Where)
	}
	return "embedded board at " + textsafe.Line(r.Where)
}
