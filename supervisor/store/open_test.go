package store

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

func TestOpenMissingDir(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope", "station.db")
	s, err := Open(path)
	if err == nil {
		s.Close()
		t.Fatal("Open in a missing directory succeeded")
	}
	if !strings.Contains(err.Error(), "does not exist") || !strings.Contains(err.Error(), path) {
		t.Errorf("err = %q, want it to name the path and say the directory does not exist", err)
	}
	if _, err := os.Stat(filepath.Dir(path)); !os.IsNotExist(err) {
		t.Errorf("Open created the directory: %v", err)
	}
}

func TestOpenFileMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no unix modes on windows")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "station.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.AddTask(context.Background(), supervisor.NewTask{Project: "p", Title: "x"}); err != nil {
		t.Fatal(err)
	}
	// The WAL and its index hold the same data as the file.
	for _, name := range []string{"station.db", "station.db-wal", "station.db-shm"} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if mode := st.Mode().Perm(); mode&0o077 != 0 {
			t.Errorf("%s mode = %o, want 0600", name, mode)
		}
	}
}

func TestOpenPragmas(t *testing.T) {
	s := openTemp(t)
	for pragma, want := range map[string]string{
		"journal_mode": "wal",
		"synchronous":  "2", // FULL
		"foreign_keys": "1",
		"busy_timeout": "5000",
	} {
		var got string
		if err := s.db.QueryRow("PRAGMA " + pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("PRAGMA %s = %s, want %s", pragma, got, want)
		}
	}
}

func TestOpenNotADatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "station.db")
	if err := os.WriteFile(path, []byte(strings.Repeat("this is not sqlite\n", 100)), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err == nil {
		s.Close()
		t.Fatal("Open on a text file succeeded")
	}
	t.Log(err)
	if !strings.Contains(err.Error(), "not a Build Station board") {
		t.Errorf("err = %q", err)
	}
}

func TestOpenDirectory(t *testing.T) {
	s, err := Open(t.TempDir())
	if err == nil {
		s.Close()
		t.Fatal("Open on a directory succeeded")
	}
	t.Log(err)
}

func TestOpenReadOnly(t *testing.T) {
	if runtime.GOOS == "windows" || os.Geteuid() == 0 {
		t.Skip("needs unix permissions that bind (not root)")
	}
	path := filepath.Join(t.TempDir(), "station.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := os.Chmod(path, 0o400); err != nil {
		t.Fatal(err)
	}
	s, err = Open(path)
	if err == nil {
		s.Close()
		t.Fatal("Open on a read-only file succeeded")
	}
	t.Log(err)
	if !strings.Contains(err.Error(), "read-only") {
		t.Errorf("err = %q, want it to say read-only", err)
	}
}

// Another process holding the write lock past the busy timeout fails Open
// with a sentence that says what to look for.
func TestOpenLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "station.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()

	other, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	other.SetMaxOpenConns(1)
	ctx := context.Background()
	conn, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// EXCLUSIVE in WAL mode keeps other connections from writing and, since
	// the first Open changed the schema, from reading the schema anew.
	if _, err := conn.ExecContext(ctx, "PRAGMA locking_mode = EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(ctx, "ROLLBACK")

	s, err = open(path, options{busyTimeout: 100 * time.Millisecond})
	if err == nil {
		s.Close()
		t.Fatal("Open on a locked database succeeded")
	}
	t.Log(err)
	if !strings.Contains(err.Error(), "locked by another process") {
		t.Errorf("err = %q, want it to say locked by another process", err)
	}
}

func TestReopenKeepsBoard(t *testing.T) {
	path := filepath.Join(t.TempDir(), "station.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	task, err := s.AddTask(ctx, supervisor.NewTask{Project: "p", Title: "kept"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.Task(ctx, task.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !got.CreatedAt.Equal(task.CreatedAt) || got.Title != "kept" {
		t.Errorf("after reopen = %+v, want %+v", got, task)
	}
	var versions int
	if err := s.db.QueryRow("SELECT COUNT(*) FROM schema_version").Scan(&versions); err != nil {
		t.Fatal(err)
	}
	if versions != len(migrations) {
		t.Errorf("schema_version has %d rows, want %d: a reopen reapplied migrations", versions, len(migrations))
	}
}

func TestOpenNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "station.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec("INSERT INTO schema_version (version, applied_at) VALUES (?, 0)", len(migrations)+1); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(path)
	if err == nil {
		s.Close()
		t.Fatal("Open on a newer schema succeeded")
	}
	if !strings.Contains(err.Error(), "upgrade buildstation") {
		t.Errorf("err = %q", err)
	}
}

// A path SQLite's URI syntax would misread is still just a file name.
func TestOpenOddPath(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("'?' is not allowed in windows file names")
	}
	dir := filepath.Join(t.TempDir(), "a dir?with #odd%20chars")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "station.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := os.Stat(path); err != nil {
		t.Errorf("the board is not where it was asked to be: %v", err)
	}
}
