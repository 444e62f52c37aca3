package cli

import (
	"strconv"
	"time"

	"github.com/spf13/cobra"
)

// boardCapOptions are `board cap`'s.
type boardCapOptions struct {
	*env
	Project, Concurrency string // Concurrency "" when not given
	Stations             []string
	StationsGiven        bool
	Windows              [3]string // idle, block, review idle: "" when not given
}

func init() { subcommand("board", newBoardCapCmd) }

func newBoardCapCmd(e *env, runF func(*boardCapOptions) error) *cobra.Command {
	o := &boardCapOptions{env: e}
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
		RunE: runE(o, func(c *cobra.Command, args []string) error {
			o.Project = args[0]
			if len(args) == 2 {
				o.Concurrency = args[1]
			}
			o.StationsGiven = c.Flags().Changed("stations")
			return nil
		}, runF, boardCapRun),
	}
	c.Flags().StringSliceVar(&o.Stations, "stations", nil, "the stations that may run the project (default: any)")
	c.Flags().StringVar(&o.Windows[0], "idle-window", "", "the least silence before any station nudges (0 removes it)")
	c.Flags().StringVar(&o.Windows[1], "block-window", "", "the least silence after the nudge before any station blocks (0 removes it)")
	c.Flags().StringVar(&o.Windows[2], "review-idle-window", "", "the idle window's floor for review sessions (0 removes it)")
	return c
}

// windowFlags are the window flags' names, in the order boardCapCmd keeps
// them.
var windowFlags = [3]string{"idle-window", "block-window", "review-idle-window"}

// boardCap shows a project's settings on the shared board or, given any,
// changes them and shows the result.
func boardCapRun(o *boardCapOptions) error {
	e, project, stations := o.env, o.Project, o.Stations
	n, set, err := parseCap(project, o.Concurrency, o.StationsGiven, o.Windows)
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
