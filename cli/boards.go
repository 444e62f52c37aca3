package cli

import (
	"context"
	"errors"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// BoardAccess is what the board verbs need of the board a home's
// config.toml names (station.db, or a shared PostgreSQL board). They reach
// it themselves, not through a station: a board is migrated before any
// station runs on it, and its status matters most when a station does not
// answer. main hands it in (Deps.Boards, internal/wiring/boardcmd), so this package links
// no store; the commands, their help and what they print stay here.
type BoardAccess interface {
	// Migrate brings the board to this build's schema.
	Migrate(ctx context.Context, home string, cfg *config.Config) (BoardReport, error)
	// Status reads the board's schema version, station.db's integrity and
	// a shared board's live stations. A shared board is only read (the
	// command is no station there); station.db is opened as a station
	// opens it.
	Status(ctx context.Context, home string, cfg *config.Config) (BoardReport, error)
	// Caps are a shared board's settings of every project that has some.
	Caps(ctx context.Context, cfg *config.Config) ([]ProjectCap, error)
	// UpdateCap changes a shared board's settings of project with edit,
	// in one transaction, and returns them as written.
	UpdateCap(ctx context.Context, cfg *config.Config, project string, edit func(*ProjectCap)) (ProjectCap, error)
}

// boards is Deps.Boards, or why the board verbs cannot run.
func (e *env) boards() (BoardAccess, error) {
	if e.deps.Boards == nil {
		return nil, errors.New("this build cannot open a board; build the full binary with make build")
	}
	return e.deps.Boards, nil
}

// BoardReport is what board status (and migrate) says of a board; its
// JSON is board status --json's.
type BoardReport struct {
	Kind    string `json:"kind"`  // "sqlite" or "postgres"
	Where   string `json:"where"` // the file, or the URL without its password
	Version int    `json:"version"`
	// Integrity is "ok" when SQLite's full integrity check passed (the
	// embedded board; a damaged one is refused with the recovery steps).
	Integrity string `json:"integrity,omitempty"`
	// Stations are a shared board's live stations (seen within the lease),
	// by name, with their leases.
	Stations []BoardStation `json:"stations,omitempty"`
}

// BoardStation is a station working a shared board, with its leases.
type BoardStation struct {
	Name     string        `json:"name"`
	LastSeen time.Time     `json:"last_seen"`
	SeenAgo  time.Duration `json:"-"` // by the board server's clock
	Leases   []BoardLease  `json:"leases"`
}

// BoardLease is one lease: which task a station runs, until when.
type BoardLease struct {
	TaskID    string        `json:"task_id"`
	Project   string        `json:"project"`
	ExpiresAt time.Time     `json:"expires_at"`
	ExpiresIn time.Duration `json:"-"` // by the board server's clock; negative once expired
}

// ProjectCap is a shared board's own settings for a project, which every
// station obeys: a cap on its sessions across the stations, the stations
// that may run it, and the floor of its watchdog windows (0: not set).
type ProjectCap struct {
	Project          string
	Concurrency      int
	Stations         []string
	IdleWindow       time.Duration
	BlockWindow      time.Duration
	ReviewIdleWindow time.Duration
}

// Windows are c's watchdog windows.
func (c ProjectCap) Windows() supervisor.BoardWindows {
	return supervisor.BoardWindows{Idle: c.IdleWindow, Block: c.BlockWindow, ReviewIdle: c.ReviewIdleWindow}
}
