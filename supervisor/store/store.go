package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/boardsql"

	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Store is the SQLite board. It is safe for concurrent use.
type Store struct {
	// shared answers the reads and writes both SQL boards make alike.
	shared
	// db is the one writer connection; rd is a pool of read-only
	// connections. In WAL mode readers see the last commit and never wait
	// for the writer, so a burst of listings does not queue behind (or in
	// front of) a transition.
	db *sql.DB
	rd *sql.DB
	// stmts are rd's prepared statements (stmts.go).
	stmts stmts
	path  string
	// now is the wall clock; tests replace it. Times are kept to the
	// millisecond, the precision the database stores.
	now func() time.Time
	// group batches concurrent writes into one commit (see write).
	group group
	// generation tells readers whether the board changed (generation.go).
	generation generation
}

var _ supervisor.Board = (*Store)(nil)

// options are the knobs tests turn; Open uses the defaults.
type options struct {
	// busyTimeout is how long a write waits for another process's lock
	// before it fails: long enough to ride out a checkpoint or a CLI
	// reading the file, short enough that a second station fails fast.
	busyTimeout time.Duration
}

func defaultOptions() options { return options{busyTimeout: 5 * time.Second} }

// Open opens the board at path, creating the file (mode 0600: task bodies
// and agent output are the user's) and migrating its schema. It fails with
// an error that says what is wrong when the directory is missing, the file
// is not a database or is read-only, or another process holds it locked; a
// failed migration changes nothing.
func Open(path string) (*Store, error) { return open(path, defaultOptions()) }

func open(path string, o options) (*Store, error) {
	created, err := createFile(path)
	if err != nil {
		return nil, fmt.Errorf("open board %s: %w", path, err)
	}
	if !created {
		if err := checkEmpty(path); err != nil {
			return nil, err
		}
	}
	db, err := sql.Open("sqlite", dsn(path, o))
	if err != nil {
		return nil, fmt.Errorf("open board %s: %w", path, err)
	}
	// One connection: writes are serialised in-process by database/sql
	// instead of by SQLITE_BUSY retries between our own connections, and a
	// board's load (a few transitions a minute) never needs more.
	db.SetMaxOpenConns(1)
	s := &Store{db: db, path: path, now: time.Now}
	s.shared = boardsql.NewBoard[*sql.Tx](sqlBoard{s})
	if err := s.init(context.Background()); err != nil {
		db.Close()
		var d *DamagedError
		if errors.As(err, &d) {
			return nil, err
		}
		return nil, fmt.Errorf("open board %s: %w", path, explain(err))
	}
	// The readers open after the schema is migrated, so none sees an old
	// schema.
	rd, err := sql.Open("sqlite", readDSN(path, o))
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open board %s: %w", path, err)
	}
	rd.SetMaxOpenConns(readers)
	rd.SetMaxIdleConns(readers)
	s.rd = rd
	ver, err := sql.Open("sqlite", readDSN(path, o))
	if err != nil {
		rd.Close()
		db.Close()
		return nil, fmt.Errorf("open board %s: %w", path, err)
	}
	ver.SetMaxOpenConns(1)
	s.generation.db = ver
	return s, nil
}

// readers is the size of the read pool: enough to keep both cores of a
// small machine busy while a few clients wait on the network, few enough
// that each connection's page cache stays a small cost.
const readers = 8

// createFile makes path with mode 0600 if it does not exist, so SQLite
// (which creates files 0644) opens an existing file; the -wal and -shm files
// SQLite makes beside it copy its mode. It checks up front what SQLite would
// report only as "unable to open database file". created says the file is
// new: only then is an empty file a new board.
func createFile(path string) (created bool, err error) {
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, fmt.Errorf("directory %s does not exist", dir)
	case err != nil:
		return false, err
	case !st.IsDir():
		return false, fmt.Errorf("%s is not a directory", dir)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		return true, f.Close()
	}
	if errors.Is(err, fs.ErrExist) {
		f, err = os.OpenFile(path, os.O_RDWR, 0o600)
	}
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return false, fmt.Errorf("database is read-only or not accessible (make it and its folder writable by you, or use another --home): %w", err)
		}
		return false, err
	}
	return false, f.Close()
}

// dsn builds a file: URI, so a path with '?' or '#' in it is a name and not
// a query, with the pragmas every connection needs.
func dsn(path string, o options) string {
	p := filepath.ToSlash(path)
	if abs, err := filepath.Abs(path); err == nil {
		p = filepath.ToSlash(abs)
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive: file:///C:/…
	}
	p = strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(p)
	q := url.Values{}
	// Writes take the write lock at BEGIN, so the read-then-write in Move
	// and Claim can neither deadlock on a lock upgrade nor act on a stale
	// read.
	q.Set("_txlock", "immediate")
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", o.busyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	// FULL, not NORMAL: in WAL mode NORMAL fsyncs only at checkpoints, so a
	// commit that has returned survives the station's crash but not the
	// machine's (power loss, kernel panic, a laptop battery). FULL syncs the
	// WAL at every commit, so an acknowledged transition is on disk; a board
	// writes a few rows a minute, so the fsync costs nothing that matters.
	q.Add("_pragma", "synchronous(FULL)")
	q.Add("_pragma", "foreign_keys(1)")
	return "file://" + p + "?" + q.Encode()
}

// readDSN is dsn for a read-only connection: query_only makes a write
// through the read pool fail instead of racing the writer.
func readDSN(path string, o options) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", o.busyTimeout.Milliseconds()))
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "query_only(1)")
	return strings.SplitN(dsn(path, o), "?", 2)[0] + "?" + q.Encode()
}

// init checks the file is whole and the connection's settings took, and
// migrates the schema.
func (s *Store) init(ctx context.Context) error {
	// A damaged page would otherwise surface later as "database disk image
	// is malformed" on a listing while writes go on into the damaged file.
	// quick_check reads every page once: milliseconds for a board.
	if err := s.check(ctx, "quick_check"); err != nil {
		return err
	}
	var mode string
	if err := s.db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return err
	}
	if !strings.EqualFold(mode, "wal") {
		// SQLite falls back silently, e.g. on a read-only medium.
		return fmt.Errorf("journal mode is %s, not wal", mode)
	}
	return migrate(ctx, s.db, sqlBoard{s})
}

// DamagedError is a board SQLite found damaged: Open refuses it, so no
// station writes into it, and says how to recover what it holds.
type DamagedError struct {
	Path   string
	Detail string // what SQLite found, first line
	Empty  bool   // the file is 0 bytes: nothing to recover from it
}

func (e *DamagedError) Error() string {
	if e.Empty {
		return fmt.Sprintf("board %s is empty (0 bytes) though it existed before, so its tasks are gone from it: "+
			"restore it from a backup, or if this home has never held a board, delete the empty file and start again", e.Path)
	}
	return fmt.Sprintf("board %s is damaged (%s): stop the station, keep this file, and recover its rows into a new one "+
		"with `sqlite3 %s .recover | sqlite3 %s`, then move the damaged file aside (with its -wal and -shm files) "+
		"and the recovered one into its place", e.Path, e.Detail, shellQuote(e.Path), shellQuote(recoveredName(e.Path)))
}

// shellQuote quotes s for a POSIX shell when it needs it, so the recovery
// command can be pasted as it is.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:=@,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func recoveredName(path string) string {
	return strings.TrimSuffix(path, filepath.Ext(path)) + "-recovered" + filepath.Ext(path)
}

// Check runs SQLite's full integrity check: what `buildstation board
// status` reports. A damaged board is a *DamagedError.
func (s *Store) Check(ctx context.Context) error { return s.check(ctx, "integrity_check") }

func (s *Store) check(ctx context.Context, pragma string) error {
	rows, err := s.db.QueryContext(ctx, "PRAGMA "+pragma)
	if err != nil {
		if isCorrupt(err) {
			return &DamagedError{Path: s.path, Detail: firstLine(err.Error())}
		}
		return err
	}
	defer rows.Close()
	var found []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return err
		}
		if line != "ok" {
			found = append(found, line)
		}
	}
	if err := rows.Err(); err != nil {
		if isCorrupt(err) {
			return &DamagedError{Path: s.path, Detail: firstLine(err.Error())}
		}
		return err
	}
	if len(found) > 0 {
		d := found[0]
		if len(found) > 1 {
			d += fmt.Sprintf(" and %d more problems", len(found)-1)
		}
		return &DamagedError{Path: s.path, Detail: d}
	}
	return nil
}

func isCorrupt(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_CORRUPT
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// checkEmpty refuses a 0-byte board that is not brand new. SQLite takes an
// empty file for a new database, so a board truncated by a full disk or a
// bad copy would silently become an empty board. A board still wholly in
// its WAL (never checkpointed) is not empty.
func checkEmpty(path string) error {
	st, err := os.Stat(path)
	if err != nil || st.Size() > 0 {
		return nil
	}
	if wal, err := os.Stat(path + "-wal"); err == nil && wal.Size() > 0 {
		return nil
	}
	return &DamagedError{Path: path, Detail: "empty file", Empty: true}
}

// explain turns the SQLite errors a user can fix into a sentence that says
// what to do.
func explain(err error) error {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return err
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return fmt.Errorf("database is locked by another process (stop the other station or program using it, then start again): %w", err)
	case sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM, sqlite3.SQLITE_CANTOPEN:
		return fmt.Errorf("database is read-only or not accessible (make it and its folder writable by you, or use another --home): %w", err)
	case sqlite3.SQLITE_NOTADB:
		return fmt.Errorf("file is not a Build Station board: %w", err)
	case sqlite3.SQLITE_CORRUPT:
		return fmt.Errorf("database disk image is damaged (stop the station and run `buildstation board status` for the recovery steps): %w", err)
	}
	return err
}

// Close releases the database; it checkpoints the WAL back into the file.
func (s *Store) Close() error {
	s.generation.close()
	s.stmts.close()
	if s.rd != nil {
		s.rd.Close()
	}
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close board %s: %w", s.path, err)
	}
	return nil
}
