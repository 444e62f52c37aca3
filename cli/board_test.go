package cli_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/store"
)

// board status and migrate open the home's embedded board themselves: no
// station needs to run.
func TestBoardStatusSQLite(t *testing.T) {
	t.Setenv("BUILDSTATION_HOME", "")
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("max_sessions = 2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(home, "station.db")

	r := run(t, "", "--home", home, "board", "migrate")
	if r.code != 0 || !strings.Contains(r.stdout, "embedded board at "+db+": schema version ") {
		t.Fatalf("board migrate: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}

	r = run(t, "", "--home", home, "board", "status")
	if r.code != 0 || r.stderr != "" || !strings.HasPrefix(r.stdout, "embedded board at "+db+": schema version ") {
		t.Fatalf("board status: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}

	r = run(t, "", "board", "status", "--json", "--home", home)
	var got struct {
		Kind     string `json:"kind"`
		Where    string `json:"where"`
		Version  int    `json:"version"`
		Stations []any  `json:"stations"`
	}
	if r.code != 0 {
		t.Fatalf("board status --json: exit %d, stderr %q", r.code, r.stderr)
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("board status --json: %v\n%s", err, r.stdout)
	}
	if got.Kind != "sqlite" || got.Where != db || got.Version < 1 || got.Stations != nil {
		t.Fatalf("board status --json = %+v", got)
	}
}

func TestBoardUsage(t *testing.T) {
	t.Setenv("BUILDSTATION_HOME", t.TempDir())
	if r := run(t, "", "board"); r.code != 2 || !strings.Contains(r.stderr, "migrate, status") {
		t.Fatalf("board without a subcommand: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := run(t, "", "board", "status", "extra"); r.code != 2 {
		t.Fatalf("board status extra: exit %d, stderr %q", r.code, r.stderr)
	}
}

// A config that names a board no server answers for fails in one sentence
// that says what to check.
func TestBoardStatusUnreachable(t *testing.T) {
	t.Setenv("BUILDSTATION_HOME", "")
	home := t.TempDir()
	cfg := "board = \"postgres://u:secret@127.0.0.1:1/db?connect_timeout=2\"\n"
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	r := run(t, "", "--home", home, "board", "status")
	if r.code != 1 || !strings.Contains(r.stderr, "cannot reach the PostgreSQL server") || strings.Contains(r.stderr, "secret") {
		t.Fatalf("board status on a dead server: exit %d, stderr %q", r.code, r.stderr)
	}
}

// A damaged embedded board: board status says so, with the recovery steps,
// instead of reporting its schema version as if all were well.
func TestBoardStatusDamaged(t *testing.T) {
	t.Setenv("BUILDSTATION_HOME", "")
	home := t.TempDir()
	db := filepath.Join(home, "station.db")
	s, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	for range 300 {
		if _, err := s.AddTask(context.Background(), supervisor.NewTask{Project: "p", Title: "t", Body: strings.Repeat("body ", 50)}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	r := run(t, "", "--home", home, "board", "status")
	if r.code != 0 || !strings.Contains(r.stdout, ", integrity ok") {
		t.Fatalf("board status on a whole board: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	f, err := os.OpenFile(db, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := f.Stat()
	if _, err := f.WriteAt([]byte(strings.Repeat("\xa5garbage", 512)), (st.Size()/4096/2)*4096); err != nil {
		t.Fatal(err)
	}
	f.Close()
	r = run(t, "", "--home", home, "board", "status")
	if r.code != 1 || !strings.Contains(r.stderr, "is damaged") || !strings.Contains(r.stderr, ".recover") {
		t.Fatalf("board status on a damaged board: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// A build without the board wiring says so in one sentence instead of
// failing on a nil board.
func TestBoardUnwired(t *testing.T) {
	t.Setenv("BUILDSTATION_HOME", "")
	home := t.TempDir()
	unwired := wired
	unwired.Boards = nil
	r := runWith(t, unwired, "", "--home", home, "board", "status")
	if r.code != 1 || !strings.Contains(r.stderr, "this build cannot open a board") {
		t.Fatalf("board status unwired: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(home, "station.db")); err == nil {
		t.Fatal("board status unwired created station.db")
	}
}
