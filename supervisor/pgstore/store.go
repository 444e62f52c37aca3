package pgstore

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/buildstation/buildstation/supervisor"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Store is the PostgreSQL board as one station sees it: the station's name
// goes on its leases, its session records and its notifications. It is
// safe for concurrent use.
type Store struct {
	pool    *pgxpool.Pool
	station string
	where   string // the URL without its password, for error messages

	// held is what this station believes it holds a lease on: the tasks
	// ClaimLeased gave it, until Release, a Move that ends the lease, or a
	// Renew that reports the lease lost. Move refuses a held task whose
	// lease is gone, and Renew names those, so the station learns of a
	// reap even if it never moves the task again.
	mu   sync.Mutex
	held map[string]bool

	// listenRetry is how long Listen waits before reconnecting a dropped
	// notification connection: a poll is needed there, since a dead
	// connection tells nobody when the server is back.
	listenRetry time.Duration
	// closed ends every Listen when the store closes.
	closed context.Context
	close  context.CancelFunc
}

var (
	_ supervisor.Board       = (*Store)(nil)
	_ supervisor.SharedBoard = (*Store)(nil)
)

// Open connects to the board at url as station, migrates its schema and
// records the station as seen. url is a libpq URL or key=value string
// ("postgres://user@host/db?sslmode=disable"); pgx's pool settings such as
// pool_max_conns may ride in it. station names this machine's station on
// the board and must be unique among the stations sharing it.
func Open(ctx context.Context, url, station string) (*Store, error) {
	where := redact(url)
	if strings.TrimSpace(station) == "" {
		return nil, fmt.Errorf("open board %s: empty station name (give each station sharing a board its own name)", where)
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's parse errors can quote the URL, password and all.
		return nil, fmt.Errorf("open board %s: not a PostgreSQL URL (postgres://user@host/db)", where)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open board %s: %w", where, err)
	}
	s := &Store{pool: pool, station: station, where: where, held: map[string]bool{}, listenRetry: time.Second}
	s.closed, s.close = context.WithCancel(context.Background())
	if err := s.init(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("open board %s: %w", where, explain(err))
	}
	return s, nil
}

// init migrates the schema, marks the station seen and takes up the leases
// the board says it holds: a station restarted under the same name owns
// them still (a tmux session may have outlived it), and it learns which
// they are from Held.
func (s *Store) init(ctx context.Context) error {
	if err := migrate(ctx, s.pool); err != nil {
		return err
	}
	var held []int64
	err := s.write(ctx, func(tx pgx.Tx) error {
		if err := s.seen(ctx, tx); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, "SELECT task_id FROM leases WHERE station = $1", s.station)
		if err != nil {
			return err
		}
		held, err = pgx.CollectRows(rows, pgx.RowTo[int64])
		return err
	})
	for _, n := range held {
		s.held[taskID(n)] = true
	}
	return err
}

// Station is the name this store acts under.
func (s *Store) Station() string { return s.station }

// Close ends every Listen and closes the pool's connections.
func (s *Store) Close() error {
	s.close()
	s.pool.Close()
	return nil
}

// Redact is the board URL as messages may show it: without its password
// (and query); a key=value string or an unparsable URL is named only by
// its kind.
func Redact(raw string) string { return redact(raw) }

func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" && u.Opaque != "" {
		return "(postgres connection string)"
	}
	u.RawQuery = "" // sslpassword and friends
	return u.Redacted()
}

// explain turns the errors a user can fix into a sentence that says what
// to do; others pass through.
func explain(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "28000", "28P01":
			return fmt.Errorf("the server refused the user or password (fix the user in the board URL, or its entry in ~/.pgpass): %w", err)
		case "3D000":
			return fmt.Errorf("the database does not exist (create it, or fix the board URL): %w", err)
		case "42501":
			return fmt.Errorf("the user may not create the board's tables (grant it CREATE on the database, or let an owner start the first station): %w", err)
		}
		return err
	}
	var connErr *pgconn.ConnectError
	if errors.As(err, &connErr) {
		return fmt.Errorf("cannot reach the PostgreSQL server (is it running, and are the host and port in the board URL right?): %w", err)
	}
	return err
}

// write runs fn in one transaction and commits it; the change is durable
// (as the server is configured) once write returns nil. A deadlock or
// serialization failure, which PostgreSQL may report when stations collide,
// rolls everything back and is retried a few times: fn must only set its
// results, so that a retry recomputes them.
func (s *Store) write(ctx context.Context, fn func(tx pgx.Tx) error) error {
	const tries = 4
	for try := 1; ; try++ {
		err := pgx.BeginFunc(ctx, s.pool, fn)
		if err == nil || try == tries || !retryable(err) || ctx.Err() != nil {
			return err
		}
	}
}

func retryable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40001" || pgErr.Code == "40P01")
}

// seen records that this station is alive now.
func (s *Store) seen(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, `INSERT INTO stations (name, last_seen) VALUES ($1, clock_timestamp())
ON CONFLICT (name) DO UPDATE SET last_seen = excluded.last_seen`, s.station)
	return err
}
