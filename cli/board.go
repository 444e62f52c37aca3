package cli

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/internal/boardopen"
	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor/config"
	"github.com/buildstation/buildstation/supervisor/pgstore"
)

func (e *env) boardCmd() *cobra.Command {
	mk := func(use, short, example string, run func(bool) error) *cobra.Command {
		var asJSON bool
		c := &cobra.Command{Use: use, Short: short, Example: example, Args: positional(0, 0),
			RunE: func(*cobra.Command, []string) error { return run(asJSON) }}
		c.Flags().BoolVar(&asJSON, "json", false, "print the result as a JSON object")
		return c
	}
	return group("board", "Migrate the board, or show its schema, integrity and stations",
		"These open the board config.toml names (station.db, or a shared PostgreSQL)\nthemselves, so they work with no station running.",
		"  buildstation board status\n  buildstation board migrate --json",
		mk("migrate", "Bring the board to this build's schema and print its version", "  buildstation board migrate", e.boardMigrate),
		mk("status", "The board's schema version and integrity; a shared board's live stations and leases", "  buildstation board status --json", e.boardStatus),
		e.boardCapCmd())
}

func (e *env) boardCapCmd() *cobra.Command {
	var stations []string
	c := &cobra.Command{
		Use:   "cap PROJECT CONCURRENCY",
		Short: "Set a shared board's own cap for a project, which every station obeys",
		Long: `Set a shared board's own settings for a project: at most CONCURRENCY
sessions across all stations (each station's config.toml may only narrow
it), and with --stations only those stations run it. CONCURRENCY 0 with no
--stations removes the board's settings.`,
		Example: `  buildstation board cap web 2
  buildstation board cap web 3 --stations buildbox,laptop`,
		Args: positional(2, 2),
		RunE: func(_ *cobra.Command, args []string) error { return e.boardCap(args[0], args[1], stations) },
	}
	c.Flags().StringSliceVar(&stations, "stations", nil, "the stations that may run the project (default: any)")
	return c
}

func (e *env) boardCap(project, conc string, stations []string) error {
	n, err := strconv.Atoi(conc)
	if err != nil || n < 0 {
		return usagef("concurrency %q is not a whole number of sessions; pass 0 or more", conc)
	}
	_, cfg, err := e.boardConfig()
	if err != nil {
		return err
	}
	if !cfg.Shared() {
		return usagef("board cap is for a shared board; this home's board is station.db, where the project's concurrency in config.toml is the cap")
	}
	if err := pgstore.SetProjectCap(e.ctx, cfg.Board, pgstore.ProjectCap{Project: project, Concurrency: n, Stations: stations}); err != nil {
		return err
	}
	if n == 0 && len(stations) == 0 {
		fmt.Fprintf(e.stdout, "project %s: no board cap; each station's config decides\n", textsafe.Line(project))
		return nil
	}
	if n > 0 {
		fmt.Fprintf(e.stdout, "project %s: at most %d sessions across all stations", textsafe.Line(project), n)
	} else {
		fmt.Fprintf(e.stdout, "project %s: as many sessions as each station's config allows", textsafe.Line(project))
	}
	if len(stations) > 0 {
		fmt.Fprintf(e.stdout, ", on %s", textsafe.Line(strings.Join(stations, ", ")))
	}
	fmt.Fprintln(e.stdout)
	return nil
}

// The board verbs open the board config.toml names themselves, not through
// a station: a board is migrated before any station runs on it, and its
// status matters most when a station does not answer.

func (e *env) boardMigrate(asJSON bool) error {
	home, cfg, err := e.boardConfig()
	if err != nil {
		return err
	}
	r, err := boardopen.Migrate(e.ctx, home, cfg)
	if err != nil {
		return err
	}
	if asJSON {
		return printJSON(e.stdout, r)
	}
	fmt.Fprintf(e.stdout, "%s: schema version %d\n", describeBoard(r), r.Version)
	return nil
}

func (e *env) boardStatus(asJSON bool) error {
	home, cfg, err := e.boardConfig()
	if err != nil {
		return err
	}
	r, err := boardopen.Status(e.ctx, home, cfg)
	if err != nil {
		return err
	}
	if asJSON {
		return printJSON(e.stdout, r)
	}
	fmt.Fprintf(e.stdout, "%s: schema version %d", describeBoard(r), r.Version)
	if r.Integrity != "" {
		fmt.Fprintf(e.stdout, ", integrity %s", r.Integrity)
	}
	fmt.Fprintln(e.stdout)
	if r.Kind != "postgres" {
		return nil
	}
	if len(r.Stations) == 0 {
		fmt.Fprintf(e.stdout, "no live stations (none renewed within the lease, %s)\n", cfg.Lease)
		return nil
	}
	t := newTable(e.stdout, "STATION", "LAST SEEN", "TASK", "PROJECT", "LEASE EXPIRES IN")
	for _, s := range r.Stations {
		seen := roundDur(s.SeenAgo) + " ago"
		if len(s.Leases) == 0 {
			t.row(s.Name, seen, "", "", "")
		}
		for _, l := range s.Leases {
			in := roundDur(l.ExpiresIn)
			if l.ExpiresIn <= 0 {
				in = "expired"
			} else if l.ExpiresIn < time.Second {
				in = "<1s"
			}
			t.row(s.Name, seen, l.TaskID, l.Project, in)
		}
	}
	return t.flush()
}

// boardConfig loads the home's config.toml, which names the board.
func (e *env) boardConfig() (string, *config.Config, error) {
	home, err := config.Home(e.home)
	if err != nil {
		return "", nil, err
	}
	cfg, err := config.Load(home)
	if err != nil {
		return "", nil, err
	}
	return home, cfg, nil
}

// describeBoard names a board for a person.
func describeBoard(r boardopen.Report) string {
	if r.Kind == "postgres" {
		return "shared board at " + textsafe.Line(r.Where)
	}
	return "embedded board at " + textsafe.Line(r.Where)
}
