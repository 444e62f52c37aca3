package pgstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/boardsql"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Store is the PostgreSQL board as one station sees it: the station's name
// goes on its leases, its session records and its notifications. It is
// safe for concurrent use.
type Store struct {
	// shared answers the reads and writes both SQL boards make alike.
	shared
	pool    *pgxpool.Pool
	station string
	where   string // the URL without its password, for error messages

	// instance tells this process from any other that ever acted under
	// the same station name; origin is the machine and home it runs in.
	instance string
	origin   string

	// held is what this station believes it holds a lease on, by task,
	// with the lease's epoch: the tasks ClaimLeased gave it, until
	// Release, a Move that ends the lease, or a Renew that reports the
	// lease lost. Move refuses a held task whose lease is gone, and Renew
	// names those, so the station learns of a reap even if it never moves
	// the task again. epochs keeps the epoch of every lease this process
	// had until it ended the lease itself: a write it makes later (a
	// completion queued during an outage) is fenced by it, and lands only
	// if nobody has been let the task since.
	mu     sync.Mutex
	held   map[string]int64
	epochs map[string]int64

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
	return OpenAs(ctx, url, Identity{Name: station})
}

// Identity is who a Store acts as on the board.
type Identity struct {
	// Name is the station's name on the board, unique among the stations
	// sharing it.
	Name string
	// Origin is where the station runs (machine and home): a process
	// from the same origin is the same station restarted and may take
	// the name over at once; one from elsewhere is another machine that
	// was given the same name.
	Origin string
	// Lease is how long a station stays live after it was last seen:
	// while another instance under Name was seen within it, and comes from
	// another origin, OpenAs refuses. Zero checks nothing.
	Lease time.Duration
}

// ErrNameInUse is why OpenAs refuses a station name a live station of
// another machine or home holds.
var ErrNameInUse = errors.New("station name in use")

// OpenAs is Open for a station with an identity: it refuses to start while
// another live instance (seen within id.Lease, from another origin) holds
// the name, and takes the name's leases over otherwise.
func OpenAs(ctx context.Context, url string, id Identity) (*Store, error) {
	station := id.Name
	where := redact(url)
	if strings.TrimSpace(station) == "" {
		return nil, fmt.Errorf("open board %s: empty station name (give each station sharing a board its own name)", where)
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's parse errors can quote the URL, password and all.
		return nil, fmt.Errorf("open board %s: not a PostgreSQL URL (postgres://user@host/db)", where)
	}
	const idleKey = "idle_in_transaction_session_timeout"
	if _, set := cfg.ConnConfig.RuntimeParams[idleKey]; !set && id.Lease > 0 {
		// A station stopped inside a transaction (SIGSTOP, a process
		// stuck in the kernel) would hold its row locks, and with them
		// every other station's renewals, for as long as it stays
		// stopped: the server ends its session once it has idled in the
		// transaction for a quarter of the lease, before the others'
		// proofs run out. A live station never idles in one that long.
		cfg.ConnConfig.RuntimeParams[idleKey] = strconv.FormatInt(max(id.Lease/4, 100*time.Millisecond).Milliseconds(), 10)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open board %s: %w", where, err)
	}
	s := &Store{pool: pool, station: station, where: where, origin: id.Origin, instance: newInstance(),
		held: map[string]int64{}, epochs: map[string]int64{}, listenRetry: time.Second}
	s.shared = boardsql.NewBoard[pgx.Tx](pgBoard{s: s})
	s.closed, s.close = context.WithCancel(context.Background())
	if err := s.init(ctx, id.Lease); err != nil {
		if errors.Is(err, ErrNameInUse) {
			s.Close()
			return nil, err
		}
		s.Close()
		return nil, fmt.Errorf("open board %s: %w", where, explain(err))
	}
	return s, nil
}

// init migrates the schema, marks the station seen and takes up the leases
// the board says it holds: a station restarted under the same name owns
// them still (a tmux session may have outlived it), and it learns which
// they are from Held.
func (s *Store) init(ctx context.Context, lease time.Duration) error {
	if err := migrate(ctx, s.pool); err != nil {
		return err
	}
	var held []heldLease
	err := s.write(ctx, func(tx pgx.Tx) error {
		var (
			instance, origin string
			ago              time.Duration
		)
		err := tx.QueryRow(ctx, "SELECT instance, origin, clock_timestamp() - last_seen FROM stations WHERE name = $1 FOR UPDATE",
			s.station).Scan(&instance, &origin, &ago)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
		case err != nil:
			return err
		case lease > 0 && instance != "" && ago < lease && (origin == "" || origin != s.origin):
			return fmt.Errorf("%w: another station named %q (at %s) was seen on the board %v ago; give this one its own name with station = \"NAME\" in config.toml or BUILDSTATION_STATION, or stop the other first",
				ErrNameInUse, s.station, orUnknown(origin), ago.Round(time.Millisecond))
		}
		if _, err := tx.Exec(ctx, `INSERT INTO stations (name, last_seen, instance, origin) VALUES ($1, clock_timestamp(), $2, $3)
ON CONFLICT (name) DO UPDATE SET last_seen = excluded.last_seen, instance = excluded.instance, origin = excluded.origin`,
			s.station, s.instance, s.origin); err != nil {
			return err
		}
		// The name's leases are this instance's now: the one before it
		// is gone (or was refused above), and its renewals stop here.
		// A lease of any other instance still running (an older process
		// of the name that has not yet learnt it lost it) stays its own
		// until it lapses: this one never settles a live session.
		rows, err := tx.Query(ctx, `UPDATE leases SET instance = $2
WHERE station = $1 AND (instance = $3 OR instance = '' OR expires_at <= clock_timestamp())
RETURNING task_id, epoch`, s.station, s.instance, instance)
		if err != nil {
			return err
		}
		held, err = pgx.CollectRows(rows, pgx.RowToStructByPos[heldLease])
		return err
	})
	for _, h := range held {
		s.held[supervisor.TaskID(h.Task)] = h.Epoch
		s.epochs[supervisor.TaskID(h.Task)] = h.Epoch
	}
	return err
}

// heldLease is a lease row as Renew and init read it back.
type heldLease struct {
	Task  int64
	Epoch int64
}

func orUnknown(s string) string {
	if s == "" {
		return "an unknown place"
	}
	return s
}

// newInstance makes the id of this station process.
func newInstance() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Instance is the id of this station process on the board.
func (s *Store) Instance() string { return s.instance }

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
			return reach(err)
		}
	}
}

// reach marks the errors that say the server did not answer (no
// connection, a connection lost, a server shutting down or starting, a
// deadline) with supervisor.ErrUnreachable, so the station queues the write
// instead of giving it up. What the server answered passes as it is.
func reach(err error) error {
	if err == nil || errors.Is(err, supervisor.ErrUnreachable) || errors.Is(err, supervisor.ErrConflict) || errors.Is(err, supervisor.ErrNameTaken) ||
		errors.Is(err, supervisor.ErrNotFound) || errors.Is(err, pgx.ErrNoRows) || errors.Is(err, context.Canceled) {
		return err
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case strings.HasPrefix(pgErr.Code, "08"), pgErr.Code == "57P01", pgErr.Code == "57P02", pgErr.Code == "57P03", pgErr.Code == "53300":
		default:
			return err
		}
	}
	return fmt.Errorf("%w: %w", supervisor.ErrUnreachable, err)
}

// retryable: the server rolled the transaction back and another try may
// pass — a serialization failure, a deadlock, or the idle-in-transaction
// timeout OpenAs sets, which a live station on a loaded machine can meet
// when it is not scheduled for a moment between two statements (the pool
// drops the ended connection; nothing was committed).
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40001" || pgErr.Code == "40P01" || pgErr.Code == "25P03")
}

// seen records that this station is alive now. A process whose name
// another instance took over marks nothing: it is not that station any
// more, and is told so (supervisor.ErrNameTaken).
func (s *Store) seen(ctx context.Context, tx pgx.Tx) error {
	tag, err := tx.Exec(ctx, `UPDATE stations SET last_seen = clock_timestamp() WHERE name = $1 AND instance = $2`, s.station, s.instance)
	if err != nil || tag.RowsAffected() == 1 {
		return err
	}
	return s.nameTaken(ctx, tx)
}

// owns refuses, with supervisor.ErrNameTaken, when another instance holds
// this station's name now: checked before a claim, so a process that woke
// from a pause never takes work under a name that is not its own.
func (s *Store) owns(ctx context.Context, tx pgx.Tx) error {
	var instance string
	err := tx.QueryRow(ctx, "SELECT instance FROM stations WHERE name = $1", s.station).Scan(&instance)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) || instance == s.instance {
		return err
	}
	return s.nameTaken(ctx, tx)
}

// nameTaken is the error of a process whose name another instance holds.
func (s *Store) nameTaken(ctx context.Context, tx pgx.Tx) error {
	var origin string
	if err := tx.QueryRow(ctx, "SELECT origin FROM stations WHERE name = $1", s.station).Scan(&origin); err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return err
	}
	return &nameTakenError{station: s.station, origin: orUnknown(origin)}
}

// nameTakenError is supervisor.ErrNameTaken with who holds the name now.
type nameTakenError struct{ station, origin string }

func (e *nameTakenError) Error() string {
	return fmt.Sprintf("station name %q was taken over by a newer instance (at %s) while this one was paused or cut off for longer than its lease", e.station, e.origin)
}

func (e *nameTakenError) Unwrap() error { return supervisor.ErrNameTaken }
