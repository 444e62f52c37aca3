//go:build linux

package fault

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"

	_ "modernc.org/sqlite" // to hold the board's lock from this process
)

// TestBoardLockedOrReadOnly starts a station on a board another process
// holds locked, and on one made immutable: `buildstation daemon` must exit
// 1 with one sentence that names the file, write nothing (no station.json,
// the board's contents unchanged), and a later start on a free board must
// find every task as it was.
func TestBoardLockedOrReadOnly(t *testing.T) {
	home := rig.WriteConfig(t, fmt.Sprintf("[[projects]]\nname = \"p\"\npath = %q\ncommand = [\"buildstation\", \"fake-agent\", \"wedge\"]\n", t.TempDir()))
	s := rig.StartOn(t, home)
	s.Must("project", "pause", "p")
	id := strings.TrimSpace(s.Must("task", "add", "--project", "p", "--title", "kept"))
	s.Stop()
	db := filepath.Join(home, "station.db")
	before := boardDigest(t, db)

	// want is what the sentence must say is wrong, todo a word of what it
	// must tell the person to do (docs/contract.md: "Errors go to stderr in one
	// sentence that says what to do").
	refused := func(t *testing.T, want, todo string) {
		t.Helper()
		cmd := exec.Command(rig.Bin(), "daemon", "--home", home)
		cmd.Env = env(home)
		start := time.Now()
		out, err := cmd.CombinedOutput()
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 1 {
			t.Fatalf("daemon on a %s board: %v, want exit 1\n%s", want, err, out)
		}
		msg := lastLine(string(out))
		t.Logf("refused in %s: %s", time.Since(start).Round(time.Millisecond), msg)
		if !strings.Contains(msg, db) {
			t.Errorf("the error does not name %s: %q", db, msg)
		}
		if !strings.Contains(msg, want) {
			t.Errorf("the error does not say the board is %s: %q", want, msg)
		}
		if !strings.Contains(msg, todo) {
			t.Errorf("the error does not say what to do (want it to mention %q): %q", todo, msg)
		}
		if strings.Count(msg, ". ") > 0 {
			t.Errorf("the error is more than one sentence: %q", msg)
		}
		if _, err := os.Stat(filepath.Join(home, "station.json")); err == nil {
			t.Error("a refused station wrote station.json")
		}
	}

	t.Run("locked by another process", func(t *testing.T) {
		h, err := sql.Open("sqlite", "file://"+db)
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		conn, err := h.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
			t.Fatal(err)
		}
		refused(t, "locked", "stop")
		if _, err := conn.ExecContext(context.Background(), "ROLLBACK"); err != nil {
			t.Fatal(err)
		}
		conn.Close()
	})
	t.Run("read-only (immutable)", func(t *testing.T) {
		if out, err := exec.Command("chattr", "+i", db).CombinedOutput(); err != nil {
			t.Skipf("cannot make the board immutable (chattr +i needs root on a filesystem with attributes): %v %s", err, out)
		}
		defer func() {
			if out, err := exec.Command("chattr", "-i", db).CombinedOutput(); err != nil {
				t.Errorf("chattr -i: %v %s", err, out)
			}
		}()
		refused(t, "read-only", "writable")
	})

	if after := boardDigest(t, db); after != before {
		t.Errorf("a refused start changed the board:\nbefore %s\nafter  %s", before, after)
	}
	s = rig.StartOn(t, home)
	if got := s.Task(id); got.State != "todo" {
		t.Errorf("task %s is %s after the refused starts, want todo", id, got.State)
	}
}

// boardDigest summarises what the board holds (rows, not file bytes: a
// reader may touch the WAL index without changing anything).
func boardDigest(t *testing.T, path string) string {
	t.Helper()
	h, err := sql.Open("sqlite", "file://"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	sum := sha256.New()
	for _, q := range []string{
		"SELECT id, state, attempt, updated_at FROM tasks ORDER BY id",
		"SELECT id, task_id, to_state FROM transitions ORDER BY id",
		"SELECT version FROM schema_version ORDER BY version",
		"SELECT project FROM paused ORDER BY project",
	} {
		rows, err := h.Query(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintln(sum, vals...)
		}
		rows.Close()
	}
	return fmt.Sprintf("%x", sum.Sum(nil))
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
