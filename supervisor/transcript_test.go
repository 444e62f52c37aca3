package supervisor

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// stuckFile is a transcript file whose writes wait until released: a disk
// far slower than the agent.
type stuckFile struct {
	release chan struct{}
	mu      sync.Mutex
	got     bytes.Buffer
	closed  bool
}

func (f *stuckFile) Write(p []byte) (int, error) {
	<-f.release
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.got.Write(p)
}

func (f *stuckFile) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	return nil
}

// TestTranscriptNeverStallsReader: with the disk stuck, Write still
// returns at once; past the backlog chunks are dropped and counted, and
// Close writes everything that was kept, in order.
func TestTranscriptNeverStallsReader(t *testing.T) {
	f := &stuckFile{release: make(chan struct{})}
	w := newTranscriptWriterLimit(f, slog.New(slog.DiscardHandler), 1<<10)
	chunk := bytes.Repeat([]byte("x"), 100)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 100 { // 10 KB into a 1 KB backlog, the disk stuck
			if n, err := w.Write(chunk); n != len(chunk) || err != nil {
				t.Errorf("Write = %d, %v", n, err)
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Write waited on a stuck disk")
	}
	if w.dropped.Load() == 0 {
		t.Error("nothing dropped past the backlog")
	}
	close(f.release)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	kept := int64(f.got.Len())
	if !f.closed || kept+w.dropped.Load() != 100*100 || kept == 0 {
		t.Errorf("closed %v, kept %d + dropped %d, want 10000 in all", f.closed, kept, w.dropped.Load())
	}
}

// TestTranscriptKeepsEverything: at disk speed nothing is dropped and the
// file holds every byte in order once closed.
func TestTranscriptKeepsEverything(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.log")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := newTranscriptWriter(f, slog.New(slog.DiscardHandler))
	var want bytes.Buffer
	for i := range 5000 {
		line := []byte(time.Duration(i).String() + " some output of an agent\r\n")
		want.Write(line)
		if _, err := w.Write(line); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if !bytes.Equal(got, want.Bytes()) || w.dropped.Load() != 0 {
		t.Errorf("file holds %d bytes, want %d; dropped %d", len(got), want.Len(), w.dropped.Load())
	}
}

// failingFile fails every write, like a full disk.
type failingFile struct{ writes int }

func (f *failingFile) Write(p []byte) (int, error) {
	f.writes++
	return 0, errors.New("no space left on device")
}
func (f *failingFile) Close() error { return nil }

var _ io.WriteCloser = (*failingFile)(nil)

func TestTranscriptFullDiskSaidOnce(t *testing.T) {
	f := &failingFile{}
	var logs bytes.Buffer
	w := newTranscriptWriter(f, slog.New(slog.NewTextHandler(&logs, nil)))
	for range 50 {
		_, _ = w.Write([]byte("x"))
		time.Sleep(time.Millisecond)
	}
	_ = w.Close()
	if n := bytes.Count(logs.Bytes(), []byte("transcript write failed")); n != 1 {
		t.Errorf("said %d times:\n%s", n, logs.String())
	}
}
