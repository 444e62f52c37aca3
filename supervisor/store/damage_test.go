package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/internal/testsupport/torn"
	"github.com/buildstation/buildstation/supervisor"
)

// damagedBoard makes a board with enough tasks to span many pages, closes
// it (checkpointing the WAL into the file) and scribbles over one page in
// the middle, as a bad sector or a torn copy would.
func damagedBoard(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "station.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 300 {
		if _, err := s.AddTask(context.Background(), supervisor.NewTask{Project: "p", Title: "task", Body: strings.Repeat("body ", 40+i%7)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	torn.MiddlePage(t, path)
	return path
}

// A damaged page is found when the board opens, not later by a listing
// while writes go on into the damaged file; the refusal says how to
// recover.
func TestOpenRefusesADamagedBoard(t *testing.T) {
	path := damagedBoard(t)
	s, err := Open(path)
	if err == nil {
		defer s.Close()
		_, lerr := s.Tasks(context.Background(), supervisor.TaskFilter{})
		_, aerr := s.AddTask(context.Background(), supervisor.NewTask{Project: "p", Title: "more"})
		t.Fatalf("Open of a damaged board succeeded (then list: %v, add: %v)", lerr, aerr)
	}
	t.Log(err)
	var d *DamagedError
	if !errors.As(err, &d) {
		t.Fatalf("err = %v (%T), want a *DamagedError", err, err)
	}
	for _, want := range []string{path, "damaged", ".recover", "keep this file", "station-recovered.db"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err = %q, want it to say %q", err, want)
		}
	}
}

// A 0-byte station.db that was there before is a truncated board, not a
// new one.
func TestOpenRefusesAnEmptyExistingBoard(t *testing.T) {
	path := filepath.Join(t.TempDir(), "station.db")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err == nil {
		s.Close()
		t.Fatal("Open of a 0-byte station.db made it a new board")
	}
	t.Log(err)
	var d *DamagedError
	if !errors.As(err, &d) || !strings.Contains(err.Error(), "0 bytes") {
		t.Errorf("err = %v, want a *DamagedError that says the file is empty", err)
	}
	if st, _ := os.Stat(path); st.Size() != 0 {
		t.Errorf("the refused file was written: %d bytes", st.Size())
	}
}

// A new board, and one reopened, pass the check.
func TestCheckPassesAWholeBoard(t *testing.T) {
	path := filepath.Join(t.TempDir(), "station.db")
	for range 2 {
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddTask(context.Background(), supervisor.NewTask{Project: "p", Title: "x"}); err != nil {
			t.Fatal(err)
		}
		if err := s.Check(context.Background()); err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
}
