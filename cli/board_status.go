package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor/config"
)

func init() { subcommand("board", newBoardStatusCmd) }

func newBoardStatusCmd(e *env, runF func(*boardOptions) error) *cobra.Command {
	return newBoardJSONCmd(e, runF, boardStatusRun, "status", "The board's schema version and integrity; a shared board's live stations and leases", "  buildstation board status --json")
}

func boardStatusRun(o *boardOptions) error {
	e, asJSON := o.env, o.JSON
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
		return config.ShortDuration(d)
	}
	for _, c := range caps {
		out = append(out, capJSON{Project: c.Project, Concurrency: c.Concurrency, Stations: c.Stations,
			IdleWindow: str(c.IdleWindow), BlockWindow: str(c.BlockWindow), ReviewIdleWindow: str(c.ReviewIdleWindow)})
	}
	return out
}
