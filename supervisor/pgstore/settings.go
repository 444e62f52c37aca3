package pgstore

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/buildstation/buildstation/supervisor"
)

// ProjectCap is the board's own settings for a project, which every station
// obeys: Concurrency (0: none) caps its sessions across all stations (a
// station's config may only narrow it), Stations (empty: any) names the
// stations that may run it. The windows (0: none) are the team's floor for
// the project's watchdog: every station waits at least this long before it
// nudges (IdleWindow; ReviewIdleWindow for a review) and before it blocks
// after the nudge (BlockWindow); a station's config may lengthen them,
// never shorten them.
type ProjectCap struct {
	Project          string        `json:"project"`
	Concurrency      int           `json:"concurrency,omitempty"`
	Stations         []string      `json:"stations,omitempty"`
	IdleWindow       time.Duration `json:"-"`
	BlockWindow      time.Duration `json:"-"`
	ReviewIdleWindow time.Duration `json:"-"`
}

// Windows are c's watchdog windows as the station reads them.
func (c ProjectCap) Windows() supervisor.BoardWindows {
	return supervisor.BoardWindows{Idle: c.IdleWindow, Block: c.BlockWindow, ReviewIdle: c.ReviewIdleWindow}
}

func (c ProjectCap) empty() bool {
	return c.Concurrency == 0 && len(c.Stations) == 0 && c.Windows() == supervisor.BoardWindows{}
}

// SetProjectCap writes c's concurrency and stations to the board at url
// (migrating it first), keeping the project's windows; nothing left set
// removes the project's settings.
func SetProjectCap(ctx context.Context, url string, c ProjectCap) error {
	_, err := UpdateProjectCap(ctx, url, c.Project, func(p *ProjectCap) {
		p.Concurrency, p.Stations = c.Concurrency, c.Stations
	})
	return err
}

// UpdateProjectCap changes the board's settings for project with edit, in
// one transaction (two people editing at once do not lose each other's
// change), migrating the board first; nothing left set removes the row. It
// returns the settings as written.
func UpdateProjectCap(ctx context.Context, url, project string, edit func(*ProjectCap)) (ProjectCap, error) {
	pool, where, err := connect(ctx, url)
	if err != nil {
		return ProjectCap{}, err
	}
	defer pool.Close()
	fail := func(err error) (ProjectCap, error) {
		return ProjectCap{}, fmt.Errorf("set the board's settings of %s at %s: %w", project, where, explain(err))
	}
	if err := migrate(ctx, pool); err != nil {
		return fail(err)
	}
	c := ProjectCap{Project: project}
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, capColumns+" WHERE project = $1 FOR UPDATE", project)
		if err != nil {
			return err
		}
		have, err := pgx.CollectRows(rows, scanCap)
		if err != nil {
			return err
		}
		if len(have) == 1 {
			c = have[0]
		}
		edit(&c)
		c.Project = project
		if c.empty() {
			_, err = tx.Exec(ctx, "DELETE FROM project_settings WHERE project = $1", project)
			return err
		}
		var conc *int
		if c.Concurrency > 0 {
			conc = &c.Concurrency
		}
		stations := c.Stations
		if stations == nil {
			stations = []string{}
		}
		_, err = tx.Exec(ctx, `INSERT INTO project_settings (project, concurrency, stations, idle_window_ms, block_window_ms, review_idle_window_ms, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, clock_timestamp())
ON CONFLICT (project) DO UPDATE SET concurrency = excluded.concurrency, stations = excluded.stations,
	idle_window_ms = excluded.idle_window_ms, block_window_ms = excluded.block_window_ms,
	review_idle_window_ms = excluded.review_idle_window_ms, updated_at = excluded.updated_at`,
			project, conc, stations, millis(c.IdleWindow), millis(c.BlockWindow), millis(c.ReviewIdleWindow))
		return err
	})
	if err != nil {
		return fail(err)
	}
	return c, nil
}

// ProjectCaps reads every project's settings on the board at url, by
// project name; it does not migrate (a read changes nothing), so a board
// older than the windows answers without them.
func ProjectCaps(ctx context.Context, url string) ([]ProjectCap, error) {
	pool, where, err := connect(ctx, url)
	if err != nil {
		return nil, err
	}
	defer pool.Close()
	v, err := version(ctx, pool)
	if err != nil {
		return nil, fmt.Errorf("read the board's project settings at %s: %w", where, explain(err))
	}
	var caps []ProjectCap
	switch {
	case v < 3: // no project_settings yet
	case v < 5: // no windows yet
		caps, err = readCaps(ctx, pool, capColumnsV3, "")
	default:
		caps, err = readCaps(ctx, pool, capColumns, "")
	}
	if err != nil {
		return nil, fmt.Errorf("read the board's project settings at %s: %w", where, explain(err))
	}
	return caps, nil
}

// ProjectWindows reads the board's watchdog windows of every project that
// has any; the station keeps them as the floor of its own.
func (s *Store) ProjectWindows(ctx context.Context) (map[string]supervisor.BoardWindows, error) {
	caps, err := readCaps(ctx, s.pool, capColumns, " WHERE COALESCE(idle_window_ms, block_window_ms, review_idle_window_ms) IS NOT NULL")
	if err != nil {
		return nil, fmt.Errorf("read the board's project windows: %w", reach(err))
	}
	out := make(map[string]supervisor.BoardWindows, len(caps))
	for _, c := range caps {
		out[c.Project] = c.Windows()
	}
	return out, nil
}

// querier is what reads need: the pool, or a transaction when the read
// decides a write.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

const (
	capColumns   = "SELECT project, concurrency, stations, idle_window_ms, block_window_ms, review_idle_window_ms FROM project_settings"
	capColumnsV3 = "SELECT project, concurrency, stations, NULL::bigint, NULL::bigint, NULL::bigint FROM project_settings"
)

func readCaps(ctx context.Context, q querier, columns, where string) ([]ProjectCap, error) {
	rows, err := q.Query(ctx, columns+where+" ORDER BY project")
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, scanCap)
}

func scanCap(row pgx.CollectableRow) (ProjectCap, error) {
	var (
		c                  ProjectCap
		conc               *int
		idle, block, rview *int64
	)
	if err := row.Scan(&c.Project, &conc, &c.Stations, &idle, &block, &rview); err != nil {
		return ProjectCap{}, err
	}
	if conc != nil {
		c.Concurrency = *conc
	}
	if len(c.Stations) == 0 {
		c.Stations = nil
	}
	c.IdleWindow, c.BlockWindow, c.ReviewIdleWindow = duration(idle), duration(block), duration(rview)
	return c, nil
}

// millis is a window as the board keeps it: NULL for none.
func millis(d time.Duration) *int64 {
	if d <= 0 {
		return nil
	}
	ms := d.Milliseconds()
	return &ms
}

func duration(ms *int64) time.Duration {
	if ms == nil {
		return 0
	}
	return time.Duration(*ms) * time.Millisecond
}

var _ supervisor.WindowBoard = (*Store)(nil)
