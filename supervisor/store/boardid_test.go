package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
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

// A board made before keeps its id: the number in the file's header,
// written by supervisor.ShortID, since its task branches carry it.
func TestBoardIDOfAnOlderBoard(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	const kept = 0x5eadbeef // bit 30 set: all 31 bits count
	if _, err := s.db.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d", kept)); err != nil {
		t.Fatal(err)
	}
	if id, err := s.BoardID(ctx); err != nil || id != supervisor.ShortID(kept) {
		t.Errorf("BoardID = %q, %v; want %q", id, err, supervisor.ShortID(kept))
	}
}
