package pgstore

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// A write whose transaction idles past the server's idle-in-transaction
// timeout (a station held up between two statements on a loaded machine)
// is rolled back by the server and tried again, not failed to the person
// who asked for it.
func TestWriteRetriesAfterIdleInTransactionTimeout(t *testing.T) {
	url := newDB(t)
	ctx := context.Background()
	s, err := OpenAs(ctx, url, Identity{Name: "A", Origin: "test", Lease: 2 * time.Second}) // timeout 500 ms
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	tries := 0
	err = s.write(ctx, func(tx pgx.Tx) error {
		tries++
		if _, err := tx.Exec(ctx, "SELECT 1"); err != nil {
			return err
		}
		if tries == 1 {
			time.Sleep(1500 * time.Millisecond) // held up inside the transaction
		}
		_, err := tx.Exec(ctx, "SELECT 1")
		return err
	})
	if err != nil {
		t.Fatalf("write after an idle-in-transaction timeout: %v (tries %d)", err, tries)
	}
	if tries != 2 {
		t.Errorf("tries = %d, want 2 (the first ended by the server)", tries)
	}
}
