package cli

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
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
	var (
		stations []string
		windows  [3]string // idle, block, review idle: "" when not given
	)
	c := &cobra.Command{
		Use:   "cap PROJECT [CONCURRENCY]",
		Short: "Show or set a shared board's own settings for a project, which every station obeys",
		Long: `Set a shared board's own settings for a project: at most CONCURRENCY
sessions across all stations (each station's config.toml may only narrow
it), and with --stations only those stations run it. CONCURRENCY 0 with no
--stations and no window removes the board's settings.

The watchdog windows (--idle-window, --block-window, --review-idle-window)
are the team's floor for the project: every station waits at least this
long before it nudges a silent session, and after the nudge before it
blocks it; a station's config.toml may lengthen a window, never shorten
it. A window not given is kept; 0 removes it. With PROJECT alone and no
flags, cap prints the project's settings.`,
		Example: `  buildstation board cap web 2
  buildstation board cap web 3 --stations buildbox,laptop
  buildstation board cap web 2 --idle-window 15m --review-idle-window 30m
  buildstation board cap web --block-window 10m
  buildstation board cap web`,
		Args: positional(1, 2),
		RunE: func(c *cobra.Command, args []string) error {
			conc := ""
			if len(args) == 2 {
				conc = args[1]
			}
			return e.boardCap(args[0], conc, stations, c.Flags().Changed("stations"), windows)
		},
	}
	c.Flags().StringSliceVar(&stations, "stations", nil, "the stations that may run the project (default: any)")
	c.Flags().StringVar(&windows[0], "idle-window", "", "the least silence before any station nudges (0 removes it)")
	c.Flags().StringVar(&windows[1], "block-window", "", "the least silence after the nudge before any station blocks (0 removes it)")
	c.Flags().StringVar(&windows[2], "review-idle-window", "", "the idle window's floor for review sessions (0 removes it)")
	return c
}

// windowFlags are the window flags' names, in the order boardCapCmd keeps
// them.
var windowFlags = [3]string{"idle-window", "block-window", "review-idle-window"}

// boardCap shows a project's settings on the shared board or, given any,
// changes them and shows the result.
func (e *env) boardCap(project, conc string, stations []string, stationsGiven bool, windows [3]string) error {
	n, set, err := parseCap(project, conc, stationsGiven, windows)
	if err != nil {
		return err
	}
	_, cfg, err := e.boardConfig()
	if err != nil {
		return err
	}
	if !cfg.Shared() {
		return usagef("board cap is for a shared board; this home's board is station.db, where config.toml's concurrency and windows are the project's")
	}
	b, err := e.boards()
	if err != nil {
		return err
	}
	if n < 0 && set == [3]*time.Duration{} {
		caps, err := b.Caps(e.ctx, cfg)
		if err != nil {
			return err
		}
		c := ProjectCap{Project: project}
		for _, have := range caps {
			if have.Project == project {
				c = have
			}
		}
		e.printCap(c)
		return nil
	}
	c, err := b.UpdateCap(e.ctx, cfg, project, func(c *ProjectCap) {
		if n >= 0 {
			c.Concurrency, c.Stations = n, stations
			if n == 0 && len(stations) == 0 && set == [3]*time.Duration{} {
				// The documented way to remove the board's settings.
				*c = ProjectCap{Project: c.Project}
			}
		}
		for i, w := range []*time.Duration{&c.IdleWindow, &c.BlockWindow, &c.ReviewIdleWindow} {
			if set[i] != nil {
				*w = *set[i]
			}
		}
	})
	if err != nil {
		return err
	}
	e.printCap(c)
	return nil
}

// parseCap checks board cap's arguments before the board is asked: n is
// the concurrency (-1 when not given: keep the board's), set the windows
// given (nil: keep the board's; 0 removes it).
func parseCap(project, conc string, stationsGiven bool, windows [3]string) (n int, set [3]*time.Duration, err error) {
	n = -1 // not given: keep the board's
	if conc != "" {
		n, err = strconv.Atoi(conc)
		if err != nil || n < 0 {
			return 0, set, usagef("concurrency %q is not a whole number of sessions; pass 0 or more", conc)
		}
	}
	if n < 0 && stationsGiven {
		return 0, set, usagef("--stations goes with CONCURRENCY: pass 0 for no cap (buildstation board cap %s 0 --stations A,B)", project)
	}
	for i, w := range windows {
		if w == "" {
			continue
		}
		d, err := time.ParseDuration(w)
		if w == "0" {
			d, err = 0, nil
		}
		if err != nil || d != 0 && d < time.Second {
			return 0, set, usagef("--%s %q is not a window; use Go durations like \"90s\" or \"15m\", from 1s up, or 0 to remove the board's", windowFlags[i], w)
		}
		set[i] = &d
	}
	return n, set, nil
}

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
			parts = append(parts, w.key+" "+shortDur(w.d))
		}
	}
	return strings.Join(parts, ", ")
}

// shortDur writes a window as a person would: "15m", "1h30m", "90s".
func shortDur(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// capJSON is a project's board settings in board status --json.
type capJSON struct {
	Project          string   `json:"project"`
	Concurrency      int      `json:"concurrency,omitempty"`
	Stations         []string `json:"stations,omitempty"`
	IdleWindow       string   `json:"idle_window,omitempty"`
	BlockWindow      string   `json:"block_window,omitempty"`
	ReviewIdleWindow string   `json:"review_idle_window,omitempty"`
}

func capsJSON(caps []ProjectCap) []capJSON {
	out := make([]capJSON, 0, len(caps))
	str := func(d time.Duration) string {
		if d <= 0 {
			return ""
		}
		return shortDur(d)
	}
	for _, c := range caps {
		out = append(out, capJSON{Project: c.Project, Concurrency: c.Concurrency, Stations: c.Stations,
			IdleWindow: str(c.IdleWindow), BlockWindow: str(c.BlockWindow), ReviewIdleWindow: str(c.ReviewIdleWindow)})
	}
	return out
}

// The board verbs open the board config.toml names themselves (through
// Boards), not through a station: a board is migrated before any station
// runs on it, and its status matters most when a station does not answer.

func (e *env) boardMigrate(asJSON bool) error {
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

func (e *env) boardStatus(asJSON bool) error {
	home, cfg, b, err := e.boardOpener()
	if err != nil {
		return err
	}
	r, err := b.Status(e.ctx, home, cfg)
	if err != nil {
		return err
	}
	var caps []ProjectCap
	if r.Kind == "postgres" {
		if caps, err = b.Caps(e.ctx, cfg); err != nil {
			return err
		}
	}
	if asJSON {
		if r.Kind != "postgres" {
			return printJSON(e.stdout, r)
		}
		return printJSON(e.stdout, struct {
			BoardReport
			Projects []capJSON `json:"projects"`
		}{r, capsJSON(caps)})
	}
	fmt.Fprintf(e.stdout, "%s: schema version %d", describeBoard(r), r.Version)
	if r.Integrity != "" {
		fmt.Fprintf(e.stdout, ", integrity %s", r.Integrity)
	}
	fmt.Fprintln(e.stdout)
	if r.Kind != "postgres" {
		return nil
	}
	for _, c := range caps {
		e.printCap(c)
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
