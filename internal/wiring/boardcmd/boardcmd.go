package boardcmd

import (
	"context"

	"github.com/buildstation/buildstation/cli"
	"github.com/buildstation/buildstation/internal/wiring/boardopen"
	"github.com/buildstation/buildstation/supervisor/config"
	"github.com/buildstation/buildstation/supervisor/pgstore"
)

// Boards opens the board for the board verbs. The zero value is ready.
type Boards struct{}

var _ cli.BoardAccess = Boards{}

// Migrate brings the board cfg names to the newest schema.
func (Boards) Migrate(ctx context.Context, home string, cfg *config.Config) (cli.BoardReport, error) {
	r, err := boardopen.Migrate(ctx, home, cfg)
	return report(r), err
}

// Status reads the board cfg names (see boardopen.Status).
func (Boards) Status(ctx context.Context, home string, cfg *config.Config) (cli.BoardReport, error) {
	r, err := boardopen.Status(ctx, home, cfg)
	return report(r), err
}

// Caps are the shared board's settings of every project that has some.
func (Boards) Caps(ctx context.Context, cfg *config.Config) ([]cli.ProjectCap, error) {
	caps, err := pgstore.ProjectCaps(ctx, cfg.Board)
	if err != nil {
		return nil, err
	}
	out := make([]cli.ProjectCap, len(caps))
	for i, c := range caps {
		out[i] = projectCap(c)
	}
	return out, nil
}

// UpdateCap changes the shared board's settings of project with edit, in
// one transaction.
func (Boards) UpdateCap(ctx context.Context, cfg *config.Config, project string, edit func(*cli.ProjectCap)) (cli.ProjectCap, error) {
	c, err := pgstore.UpdateProjectCap(ctx, cfg.Board, project, func(p *pgstore.ProjectCap) {
		c := projectCap(*p)
		edit(&c)
		*p = pgstore.ProjectCap(c)
	})
	if err != nil {
		return cli.ProjectCap{}, err
	}
	return projectCap(c), nil
}

// projectCap is the board's settings as the command line prints them.
func projectCap(c pgstore.ProjectCap) cli.ProjectCap { return cli.ProjectCap(c) }

// report is a board's report as the command line prints it.
func report(r boardopen.Report) cli.BoardReport {
	out := cli.BoardReport{Kind: r.Kind, Where: r.Where, Version: r.Version, Integrity: r.Integrity}
	if r.Stations != nil {
		out.Stations = make([]cli.BoardStation, len(r.Stations))
	}
	for i, s := range r.Stations {
		st := cli.BoardStation{Name: s.Name, LastSeen: s.LastSeen, SeenAgo: s.SeenAgo}
		if s.Leases != nil {
			st.Leases = make([]cli.BoardLease, len(s.Leases))
		}
		for j, l := range s.Leases {
			st.Leases[j] = cli.BoardLease(l)
		}
		out.Stations[i] = st
	}
	return out
}
