package pgstore

import (
	"context"
	"testing"
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
