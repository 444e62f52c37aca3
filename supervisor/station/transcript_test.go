package station

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
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
// Close writes everything that was kept, in order, with a note where output
// is missing that says how much.
func TestTranscriptNeverStallsReader(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &stuckFile{release: make(chan struct{})}
		var logs bytes.Buffer
		w := newTranscriptWriterLimit(f, slog.New(slog.NewTextHandler(&logs, nil)), 1<<10)
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
		synctest.Wait()
		select {
		case <-done:
		default:
			t.Fatal("Write waited on a stuck disk")
		}
		if w.dropped.Load() == 0 {
			t.Error("nothing dropped past the backlog")
		}
		close(f.release)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		got := f.got.String()
		noted := 0
		for _, m := range gapRE.FindAllStringSubmatch(got, -1) {
			n, _ := strconv.Atoi(m[1])
			noted += n
		}
		kept := int64(strings.Count(got, "x"))
		if !f.closed || kept+w.dropped.Load() != 100*100 || kept == 0 || int64(noted) != w.dropped.Load() {
			t.Errorf("closed %v, kept %d + dropped %d, want 10000 in all; the transcript notes %d missing", f.closed, kept, w.dropped.Load(), noted)
		}
		if want := fmt.Sprintf("dropped_bytes=%d", w.dropped.Load()); !strings.Contains(logs.String(), want) {
			t.Errorf("the log does not say %s:\n%s", want, logs.String())
		}
	})
}

var gapRE = regexp.MustCompile(`\[buildstation: (\d+) bytes of output missing here`)

// The note stands where the output went missing: what came before it and
// what came after keep their places.
func TestTranscriptNotesTheGapInPlace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &stuckFile{release: make(chan struct{})}
		w := newTranscriptWriterLimit(f, slog.New(slog.DiscardHandler), 10)
		_, _ = w.Write([]byte("before\n"))
		synctest.Wait() // the loop took it and waits on the disk
		_, _ = w.Write([]byte("kept\n"))
		_, _ = w.Write([]byte("lost, too long\n"))
		close(f.release)
		synctest.Wait()
		_, _ = w.Write([]byte("after\n"))
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		want := "before\nkept\n" + gapNote(len("lost, too long\n")) + "after\n"
		if got := f.got.String(); got != want {
			t.Errorf("transcript %q, want %q", got, want)
		}
	})
}

// TestConsoleReaderNeverWaitsOnTheDisk: the PTY reader hands every chunk
// to the console; with the transcript's disk stuck it still returns at
// once, the console keeps every byte for its viewers, and what the
// transcript could not take is counted.
func TestConsoleReaderNeverWaitsOnTheDisk(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &stuckFile{release: make(chan struct{})}
		tw := newTranscriptWriterLimit(f, slog.New(slog.DiscardHandler), 4<<10)
		con := newConsole(tw, slog.New(slog.DiscardHandler))
		chunk := bytes.Repeat([]byte("y"), 1000)
		done := make(chan struct{})
		go func() {
			defer close(done)
			for range 100 {
				con.write(chunk, time.Now())
			}
		}()
		synctest.Wait()
		select {
		case <-done:
		default:
			t.Fatal("the PTY reader waits on a stuck transcript")
		}
		if n := len(con.snapshot()); n != 100*len(chunk) {
			t.Errorf("the console holds %d bytes, want all %d", n, 100*len(chunk))
		}
		if tw.dropped.Load() == 0 {
			t.Error("nothing counted as dropped from the transcript")
		}
		close(f.release)
		_ = tw.Close()
	})
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
	synctest.Test(t, func(t *testing.T) {
		f := &failingFile{}
		var logs bytes.Buffer
		w := newTranscriptWriter(f, slog.New(slog.NewTextHandler(&logs, nil)))
		for range 50 {
			_, _ = w.Write([]byte("x"))
			synctest.Wait() // each write reaches the disk
		}
		_ = w.Close()
		if n := bytes.Count(logs.Bytes(), []byte("transcript write failed")); n != 1 || f.writes != 1 {
			t.Errorf("tried %d writes, said %d times:\n%s", f.writes, n, logs.String())
		}
	})
}

// countingFile counts the writes that reach the file.
type countingFile struct {
	mu     sync.Mutex
	writes int
	got    bytes.Buffer
}

func (f *countingFile) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.writes++
	return f.got.Write(p)
}

func (f *countingFile) Close() error { return nil }

func (f *countingFile) state() (writes int, held int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.writes, f.got.Len()
}

// TestTranscriptWritesInLargePieces: a flood read a terminal's 4 KiB at a
// time reaches the file in large writes, not one write (and one wake of
// the writer) per read, even when the writer has a core to itself between
// reads; and what gathered reaches the file within transcriptFlush once the
// output stops.
func TestTranscriptWritesInLargePieces(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &countingFile{}
		w := newTranscriptWriter(f, slog.New(slog.DiscardHandler))
		chunk := bytes.Repeat([]byte("y"), 4<<10)
		const chunks = 256 // 1 MiB
		for range chunks {
			_, _ = w.Write(chunk)
			synctest.Wait() // the writer runs as soon as it may
		}
		time.Sleep(transcriptFlush)
		synctest.Wait()
		writes, held := f.state()
		if held != chunks*len(chunk) {
			t.Errorf("%s after the output stopped the file holds %d bytes, want %d", transcriptFlush, held, chunks*len(chunk))
		}
		if max := chunks*len(chunk)/transcriptFlushAt + 2; writes > max {
			t.Errorf("1 MiB in 4 KiB reads took %d file writes, want at most %d", writes, max)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestTranscriptLetsGoOfABurstsBuffers: once a burst is written and the
// session is quiet, the writer keeps no burst-sized buffer: hundreds of
// idle sessions must not each hold one.
func TestTranscriptLetsGoOfABurstsBuffers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &countingFile{}
		w := newTranscriptWriter(f, slog.New(slog.DiscardHandler))
		chunk := bytes.Repeat([]byte("z"), 4<<10)
		for range 75 { // 300 KB, as the bench's idle agents print
			_, _ = w.Write(chunk)
		}
		time.Sleep(transcriptFlush)
		synctest.Wait()
		w.mu.Lock()
		held := cap(w.cur)
		for _, b := range append(w.full, w.free...) {
			held += cap(b)
		}
		w.mu.Unlock()
		if held > keepTranscriptCap {
			t.Errorf("a quiet writer holds %d bytes of buffers, want at most %d", held, keepTranscriptCap)
		}
		_ = w.Close()
	})
}

// TestTranscriptFloodAllocatesNoMoreThanItsBacklog: a flood read 4 KiB at
// a time reuses its blocks: what the reader and the writer allocate is
// bounded by the backlog, however much output passes (one growing buffer
// per side was copied and let go over and over: twice the output's size).
func TestTranscriptFloodAllocatesNoMoreThanItsBacklog(t *testing.T) {
	// In a bubble, the flush timer goes off only once the output stops
	// (a loaded machine's pause in the reader is not a pause of output).
	synctest.Test(t, func(t *testing.T) {
		f, err := os.Create(filepath.Join(t.TempDir(), "s.log"))
		if err != nil {
			t.Fatal(err)
		}
		chunk := bytes.Repeat([]byte("0123456789 the quick brown fox jumps over the lazy dog abcdefgh\r\n"), 64)[:4095]
		const total = 64 << 20
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		w := newTranscriptWriter(f, slog.New(slog.DiscardHandler))
		for n := 0; n < total; n += len(chunk) {
			_, _ = w.Write(chunk)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		if got, bound := after.TotalAlloc-before.TotalAlloc, uint64(3*transcriptBacklog); got > bound {
			t.Errorf("64 MiB of output allocated %d MiB, want at most %d MiB (the blocks queued, being written and kept: 3 backlogs)", got>>20, bound>>20)
		}
	})
}
