package outbox

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
)

// Entries survive a reopen, in order, and go once removed.
func TestOutboxKeepsOrderAcrossReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), File)
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	m := supervisor.Move{From: []supervisor.TaskState{supervisor.TaskWorking}, To: supervisor.TaskDone, Summary: "s"}
	for _, id := range []string{"t1", "t2", "t3"} {
		if _, err := b.Add(ctx, supervisor.OutboxEntry{Kind: "move", TaskID: id, Epoch: 7, Move: &m}); err != nil {
			t.Fatal(err)
		}
	}
	b.Close()
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("outbox file: %v, %v; want mode 0600", fi, err)
	}
	b, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	es, err := b.List(ctx)
	if err != nil || len(es) != 3 || es[0].TaskID != "t1" || es[2].TaskID != "t3" || es[1].Epoch != 7 || es[1].Move.To != supervisor.TaskDone {
		t.Fatalf("List = %+v, %v", es, err)
	}
	if err := b.Remove(ctx, es[0].Seq); err != nil {
		t.Fatal(err)
	}
	if es, _ := b.List(ctx); len(es) != 2 || es[0].TaskID != "t2" {
		t.Fatalf("after Remove: %+v", es)
	}
}

// Tokens kept on this machine come back by session id, across a reopen.
func TestOutboxKeepsTokens(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), File)
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.KeepToken(ctx, "t1.1", "tok"); err != nil {
		t.Fatal(err)
	}
	b.Close()
	b, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if tok, ok := b.Token(ctx, "t1.1"); !ok || tok != "tok" {
		t.Fatalf("Token = %q, %v", tok, ok)
	}
	if _, ok := b.Token(ctx, "t2.1"); ok {
		t.Fatal("a token for a session never kept")
	}
}
