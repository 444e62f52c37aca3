package pgstore

import (
	"context"
	"hash/fnv"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
)

// Every station on one shared board sees the same board id (so a task's
// branch has one name wherever it runs); another database has another.
func TestBoardIDIsTheDatabases(t *testing.T) {
	ctx := context.Background()
	url := newDB(t)
	a, b := openStore(t, url, "a"), openStore(t, url, "b")
	ida, err := a.BoardID(ctx)
	if err != nil || len(ida) != 6 {
		t.Fatalf("BoardID = %q, %v", ida, err)
	}
	if idb, err := b.BoardID(ctx); err != nil || idb != ida {
		t.Errorf("station b sees %q, %v; station a %q", idb, err, ida)
	}
	other := openStore(t, newDB(t), "a")
	if ido, _ := other.BoardID(ctx); ido == ida {
		t.Errorf("two databases share id %q", ido)
	}
}

// A shared board's id stays what stations have put in branch names: the
// FNV-1a hash of the cluster's system identifier and the database's oid,
// 31 bits of it, written by supervisor.ShortID.
func TestBoardIDIsKept(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, newDB(t), "a")
	var ident string
	if err := s.pool.QueryRow(ctx, `SELECT (SELECT system_identifier::text FROM pg_control_system()) || '/' || oid::text
		FROM pg_database WHERE datname = current_database()`).Scan(&ident); err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	h.Write([]byte(ident))
	want := supervisor.ShortID(h.Sum64() & 0x7fffffff)
	if id, err := s.BoardID(ctx); err != nil || id != want {
		t.Errorf("BoardID = %q, %v; want %q", id, err, want)
	}
}
