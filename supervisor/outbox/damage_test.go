package outbox

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/internal/testsupport/torn"
)

// damagedOutbox keeps enough tokens to span many pages, closes the file
// (checkpointing the WAL into it) and scribbles over a page in the middle
// of the tokens table, as a bad sector or a torn copy would.
func damagedOutbox(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), File)
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 400 {
		if err := b.KeepToken(context.Background(), fmt.Sprintf("t%d.1", i), strings.Repeat("ab", 32)); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	torn.MiddlePage(t, path)
	return path
}

// A damaged outbox is found when the station opens it, not later by a
// session whose token could not be kept; the refusal says how to recover.
func TestOpenRefusesADamagedOutbox(t *testing.T) {
	path := damagedOutbox(t)
	b, err := Open(path)
	if err == nil {
		defer b.Close()
		kerr := b.KeepToken(context.Background(), "t999.1", "tok")
		t.Fatalf("Open of a damaged outbox succeeded (then keep a token: %v)", kerr)
	}
	t.Log(err)
	for _, want := range []string{path, "damaged", ".recover", "keep this file", "outbox-recovered.db"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err = %q, want it to say %q", err, want)
		}
	}
}

// A forgotten token is gone from the file and its WAL, not only from the
// table: an ended session's token is no key for anyone who reads them.
func TestForgetTokenLeavesNoTrace(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), File)
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	secret := "bst_" + strings.Repeat("5ec7e7", 8)
	if err := b.KeepToken(ctx, "t1.1", secret); err != nil {
		t.Fatal(err)
	}
	if err := b.KeepToken(ctx, "t2.1", "other"); err != nil {
		t.Fatal(err)
	}
	if err := b.ForgetToken(ctx, "t1.1"); err != nil {
		t.Fatal(err)
	}
	if _, ok := b.Token(ctx, "t1.1"); ok {
		t.Error("a forgotten token is still given back")
	}
	if tok, ok := b.Token(ctx, "t2.1"); !ok || tok != "other" {
		t.Errorf("another session's token = %q, %v", tok, ok)
	}
	for _, f := range []string{path, path + "-wal"} {
		if data, err := os.ReadFile(f); err == nil && bytes.Contains(data, []byte(secret)) {
			t.Errorf("%s still holds the forgotten token", filepath.Base(f))
		}
	}
	b.Close()
}
