package pgstore

import (
	"context"
	"fmt"
	"time"

	"github.com/buildstation/buildstation/supervisor"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// What `buildstation board migrate|status` does with a shared board, as no
// station: nothing here records a station as seen or takes up its leases.

// StationStatus is a station working the board, with its leases.
type StationStatus struct {
	Name     string        `json:"name"`
	LastSeen time.Time     `json:"last_seen"`
	SeenAgo  time.Duration `json:"-"` // by the server's clock
	Leases   []LeaseStatus `json:"leases"`
}

// LeaseStatus is one lease: which task a station runs, until when.
type LeaseStatus struct {
	TaskID    string        `json:"task_id"`
	Project   string        `json:"project"`
	ExpiresAt time.Time     `json:"expires_at"`
	ExpiresIn time.Duration `json:"-"` // by the server's clock; negative once expired
}

// Migrate brings the board at url to the newest schema and returns its
// version.
func Migrate(ctx context.Context, url string) (int, error) {
	pool, where, err := connect(ctx, url)
	if err != nil {
		return 0, err
	}
	defer pool.Close()
	if err := migrate(ctx, pool); err != nil {
		return 0, fmt.Errorf("migrate board %s: %w", where, explain(err))
	}
	v, err := version(ctx, pool)
	if err != nil {
		return 0, fmt.Errorf("migrate board %s: %w", where, explain(err))
	}
	return v, nil
}

// Inspect reads the board at url without changing it: its schema version
// (0 before the first station migrated it) and the stations seen within
// lease, the time a live one renews in, with their leases.
func Inspect(ctx context.Context, url string, lease time.Duration) (int, []StationStatus, error) {
	pool, where, err := connect(ctx, url)
	if err != nil {
		return 0, nil, err
	}
	defer pool.Close()
	v, err := version(ctx, pool)
	if err != nil {
		return 0, nil, fmt.Errorf("read board %s: %w", where, explain(err))
	}
	if v < 2 { // no stations table yet
		return v, []StationStatus{}, nil
	}
	stations, err := liveStations(ctx, pool, lease)
	if err != nil {
		return v, nil, fmt.Errorf("read board %s: %w", where, explain(err))
	}
	return v, stations, nil
}

// connect opens a pool on url, for a tool that acts as no station.
func connect(ctx context.Context, url string) (*pgxpool.Pool, string, error) {
	where := redact(url)
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, where, fmt.Errorf("open board %s: not a PostgreSQL URL (postgres://user@host/db)", where)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, where, fmt.Errorf("open board %s: %w", where, err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, where, fmt.Errorf("open board %s: %w", where, explain(err))
	}
	return pool, where, nil
}

// version is the schema version, 0 for a database no station migrated.
func version(ctx context.Context, pool *pgxpool.Pool) (int, error) {
	var exists bool
	if err := pool.QueryRow(ctx, "SELECT to_regclass('schema_version') IS NOT NULL").Scan(&exists); err != nil || !exists {
		return 0, err
	}
	var v int
	err := pool.QueryRow(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_version").Scan(&v)
	return v, err
}

// liveStations lists the stations seen within lease by name, each with its
// leases in task order.
func liveStations(ctx context.Context, pool *pgxpool.Pool, lease time.Duration) ([]StationStatus, error) {
	rows, err := pool.Query(ctx, `SELECT name, last_seen, EXTRACT(EPOCH FROM clock_timestamp() - last_seen) * 1000
FROM stations WHERE last_seen > clock_timestamp() - $1 * interval '1 millisecond' ORDER BY name`, lease.Milliseconds())
	if err != nil {
		return nil, err
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (StationStatus, error) {
		var (
			st StationStatus
			ms float64
		)
		err := row.Scan(&st.Name, &st.LastSeen, &ms)
		st.LastSeen, st.SeenAgo, st.Leases = st.LastSeen.UTC(), time.Duration(ms*float64(time.Millisecond)), []LeaseStatus{}
		return st, err
	})
	if err != nil {
		return nil, err
	}
	for i := range out {
		rows, err := pool.Query(ctx, `SELECT task_id, project, expires_at, EXTRACT(EPOCH FROM expires_at - clock_timestamp()) * 1000
FROM leases WHERE station = $1 ORDER BY task_id`, out[i].Name)
		if err != nil {
			return nil, err
		}
		out[i].Leases, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (LeaseStatus, error) {
			var (
				l  LeaseStatus
				n  int64
				ms float64
			)
			err := row.Scan(&n, &l.Project, &l.ExpiresAt, &ms)
			l.TaskID, l.ExpiresAt, l.ExpiresIn = supervisor.TaskID(n), l.ExpiresAt.UTC(), time.Duration(ms*float64(time.Millisecond))
			return l, err
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
