package boardopen

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
	"github.com/buildstation/buildstation/supervisor/pgstore"
	"github.com/buildstation/buildstation/supervisor/store"
)

// openTimeout bounds reaching a shared board's server.
const openTimeout = time.Minute

// Board is what a station keeps its tasks in: the board proper, and the
// gate verdicts that worktrees reuse.
type Board interface {
	supervisor.Board
	supervisor.GateCache
}

// Open opens station.db in home, or the shared board cfg names, as this
// station's name there (cfg.StationName).
func Open(ctx context.Context, home string, cfg *config.Config) (Board, error) {
	if !cfg.Shared() {
		return store.Open(filepath.Join(home, config.FileDB))
	}
	octx, cancel := context.WithTimeout(ctx, openTimeout)
	defer cancel()
	return pgstore.OpenAs(octx, cfg.Board, pgstore.Identity{Name: cfg.StationName(), Origin: cfg.Origin(), Lease: cfg.Lease})
}

// Report is what `buildstation board status` (and migrate) says of a board.
type Report struct {
	Kind    string `json:"kind"`  // "sqlite" or "postgres"
	Where   string `json:"where"` // the file, or the URL without its password
	Version int    `json:"version"`
	// Integrity is "ok" when SQLite's full integrity check passed (the
	// embedded board; a damaged one is refused with the recovery steps).
	Integrity string `json:"integrity,omitempty"`
	// Stations are a shared board's live stations (seen within the lease),
	// by name, with their leases.
	Stations []pgstore.StationStatus `json:"stations,omitempty"`
}

// Migrate brings the board cfg names to the newest schema.
func Migrate(ctx context.Context, home string, cfg *config.Config) (Report, error) {
	if !cfg.Shared() {
		return sqliteReport(ctx, home)
	}
	octx, cancel := context.WithTimeout(ctx, openTimeout)
	defer cancel()
	v, err := pgstore.Migrate(octx, cfg.Board)
	if err != nil {
		return Report{}, err
	}
	return Report{Kind: "postgres", Where: pgstore.Redact(cfg.Board), Version: v}, nil
}

// Status reads the board cfg names. A shared board is only read: the
// command counts as no station and migrates nothing. The embedded board is
// opened as a station opens it (created and migrated if need be).
func Status(ctx context.Context, home string, cfg *config.Config) (Report, error) {
	if !cfg.Shared() {
		return sqliteReport(ctx, home)
	}
	octx, cancel := context.WithTimeout(ctx, openTimeout)
	defer cancel()
	v, stations, err := pgstore.Inspect(octx, cfg.Board, cfg.Lease)
	if err != nil {
		return Report{}, err
	}
	return Report{Kind: "postgres", Where: pgstore.Redact(cfg.Board), Version: v, Stations: stations}, nil
}

// sqliteReport opens station.db, which migrates it, reads its version and
// runs the full integrity check (Open ran only the quick one).
func sqliteReport(ctx context.Context, home string) (Report, error) {
	path := filepath.Join(home, config.FileDB)
	s, err := store.Open(path)
	if err != nil {
		return Report{}, err
	}
	defer s.Close()
	v, err := s.Version(ctx)
	if err != nil {
		return Report{}, fmt.Errorf("board status: %w", err)
	}
	if err := s.Check(ctx); err != nil {
		return Report{}, err
	}
	return Report{Kind: "sqlite", Where: path, Version: v, Integrity: "ok"}, nil
}
