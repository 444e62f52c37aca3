package store

import (
	"context"
	"path/filepath"
	"testing"
)

// A board's id is made once and kept in the file: the same after a
// reopen, different for another board.
func TestBoardIDIsKeptInTheFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "station.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	id, err := s.BoardID(ctx)
	if err != nil || len(id) != 6 {
		t.Fatalf("BoardID = %q, %v", id, err)
	}
	s.Close()
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if again, err := s.BoardID(ctx); err != nil || again != id {
		t.Errorf("after a reopen %q, %v; want %q", again, err, id)
	}
	other, err := Open(filepath.Join(t.TempDir(), "station.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if oid, _ := other.BoardID(ctx); oid == id {
		t.Errorf("two boards share id %q", oid)
	}
}
