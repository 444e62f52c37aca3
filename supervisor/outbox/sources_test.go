package outbox

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/source"
)

// A source write is queued once per key, ever; it stays owed across a
// reopen until it is done, and remembers that it was tried.
func TestSourceWritesOncePerKey(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), File)
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	w := source.Write{Key: "t1/1/start/comment", Kind: source.WriteComment, TaskID: "t1", Ref: supervisor.External{Kind: "github", ID: "a/b#1"}, Text: "hi"}
	for i, want := range []bool{true, false} {
		if ok, err := b.Queue(ctx, w); err != nil || ok != want {
			t.Fatalf("Queue #%d = %v, %v; want %v", i, ok, err, want)
		}
	}
	w2 := w
	w2.Key = "t1/pr"
	b.Queue(ctx, w2)
	if err := b.Try(ctx, w.Key); err != nil {
		t.Fatal(err)
	}
	b.Close()
	if b, err = Open(path); err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ws, err := b.Pending(ctx)
	if err != nil || len(ws) != 2 || ws[0].Key != w.Key || !ws[0].Tried || ws[1].Tried || ws[0].Text != "hi" {
		t.Fatalf("Pending = %+v, %v", ws, err)
	}
	if err := b.Done(ctx, w2.Key, source.Sent{URL: "http://pr/1"}, ""); err != nil {
		t.Fatal(err)
	}
	if s, ok := b.Made(ctx, w2.Key); !ok || s.URL != "http://pr/1" {
		t.Fatalf("Made = %+v, %v", s, ok)
	}
	if ok, _ := b.Queue(ctx, w2); ok {
		t.Fatal("a write that landed was queued again")
	}
	if ws, _ := b.Pending(ctx); len(ws) != 1 || ws[0].Key != w.Key {
		t.Fatalf("Pending after Done = %+v", ws)
	}
}
