package station

import (
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// transcriptBacklog bounds what a session's transcript may hold in memory
// while its file write is slow: seconds of a flooding agent.
const transcriptBacklog = 8 << 20

// The writer gathers output and writes it in large pieces: a terminal is
// read 4 KiB at a time, and waking the writer and writing the file for
// each read cost the reader's core as much as the reading (measured: a
// third of the station's CPU on 100 MB). It writes once transcriptFlushAt
// bytes gathered, or transcriptFlush after the first byte of a quieter
// stream, so a transcript is never more than that behind the console.
//
// Output gathers in blocks of transcriptFlushAt bytes that a flood reuses:
// one growing buffer per side, swapped with the writer, was copied again
// at each growth and let go half the time (measured: 2.2 bytes allocated
// and copied per byte of output, a third of the reader's CPU and the
// runtime's page returns as much again).
const (
	transcriptFlush   = 50 * time.Millisecond
	transcriptFlushAt = 256 << 10
	// keepTranscriptCap is the buffer a quiet writer keeps; a burst's
	// blocks are let go once written, so idle sessions hold none.
	keepTranscriptCap = 64 << 10
)

// transcriptWriter writes a session's transcript off the PTY reader's
// goroutine: Write copies the chunk into the pending blocks and returns at
// once; one goroutine writes what gathered in large writes. A disk slower
// than the agent must not stall the reader (the agent would block on its
// terminal and look idle), so when the backlog is full a chunk is dropped
// and counted instead: the transcript says where output is missing and how
// much (gapNote), and the log says so at the first drop and when the
// transcript closes. A failed write (full disk) is said once and the
// transcript stops.
type transcriptWriter struct {
	f   io.WriteCloser
	log *slog.Logger

	mu sync.Mutex
	// What is not written yet: full blocks, oldest first, then cur,
	// the block being filled (it grows by append up to a block while
	// output is quiet). queued is their bytes. free holds written
	// blocks for reuse while output floods; batch is the loop's list.
	full    [][]byte
	cur     []byte
	queued  int
	free    [][]byte
	batch   [][]byte
	closing bool
	gap     int  // bytes dropped since the last chunk kept, not yet noted
	armed   bool // flush is set to wake the loop (see transcriptFlush)
	quiet   bool // flush went off: output paused, a flood's blocks may go
	flush   *time.Timer
	flushAt int // pending bytes that wake the loop at once; a block's size

	wake    chan struct{}
	done    chan struct{}
	dropped atomic.Int64
	failed  atomic.Bool
	limit   int
	// max is transcript_max (0: no bound): past it the file drops its
	// oldest half, where the file can (supervisor.TranscriptTrimmer).
	max     atomic.Int64
	trimmed bool // said in the log once
}

func newTranscriptWriter(f io.WriteCloser, log *slog.Logger) *transcriptWriter {
	return newTranscriptWriterLimit(f, log, transcriptBacklog)
}

// newTranscriptWriterLimit is newTranscriptWriter with a backlog of limit
// bytes (tests make it small).
func newTranscriptWriterLimit(f io.WriteCloser, log *slog.Logger, limit int) *transcriptWriter {
	w := &transcriptWriter{f: f, log: log, wake: make(chan struct{}, 1), done: make(chan struct{}), limit: limit,
		flushAt: min(transcriptFlushAt, limit/2)}
	w.flush = time.AfterFunc(time.Hour, w.timeUp)
	w.flush.Stop()
	go w.loop()
	return w
}

// Write never waits on the disk and never fails (see transcriptWriter).
func (w *transcriptWriter) Write(p []byte) (int, error) {
	if w.failed.Load() || len(p) == 0 {
		return len(p), nil
	}
	w.mu.Lock()
	if w.queued+len(p) > w.limit {
		w.gap += len(p)
		w.mu.Unlock()
		if w.dropped.Add(int64(len(p))) == int64(len(p)) {
			w.log.Warn("transcript write is behind the agent; dropping output from the transcript (the console keeps it)")
		}
		return len(p), nil
	}
	w.noteGapLocked()
	w.appendLocked(p)
	now := w.queued >= w.flushAt
	if !now {
		w.armLocked()
	}
	w.mu.Unlock()
	if now {
		w.poke()
	}
	return len(p), nil
}

// appendLocked copies p into the blocks: a full block is queued and the
// next one comes from those written (a flood's) or is made whole at once;
// while output is quiet, the one block grows by append.
func (w *transcriptWriter) appendLocked(p []byte) {
	w.queued += len(p)
	for len(p) > 0 {
		if len(w.cur) >= w.flushAt {
			w.full = append(w.full, w.cur)
			w.cur = nil
			if len(w.free) == 0 {
				w.cur = make([]byte, 0, w.flushAt)
			}
		}
		if n := len(w.free); w.cur == nil && n > 0 {
			w.cur, w.free[n-1] = w.free[n-1], nil
			w.free = w.free[:n-1]
		}
		n := min(len(p), w.flushAt-len(w.cur))
		w.cur = append(w.cur, p[:n]...)
		p = p[n:]
	}
}

// timeUp is the flush timer's: output paused for transcriptFlush (a
// flood re-arms it with each piece, so it goes off only once output is
// quieter): what gathered is written and a flood's blocks let go.
func (w *transcriptWriter) timeUp() {
	w.mu.Lock()
	w.quiet = true
	w.mu.Unlock()
	w.poke()
}

// poke wakes the loop (it writes what is pending).
func (w *transcriptWriter) poke() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// armLocked sets the flush timer, unless it is set: what is pending now
// reaches the file within transcriptFlush.
func (w *transcriptWriter) armLocked() {
	if !w.armed {
		w.armed = true
		w.flush.Reset(transcriptFlush)
	}
}

// noteGapLocked puts the note of a gap where the dropped output was. It
// may take the backlog a line past its limit.
func (w *transcriptWriter) noteGapLocked() {
	if w.gap > 0 {
		w.appendLocked([]byte(gapNote(w.gap)))
		w.gap = 0
	}
}

// gapNote is what the transcript holds in place of n bytes it dropped: a
// line of its own, so that `logs` shows it as one.
func gapNote(n int) string {
	return fmt.Sprintf("\r\n[buildstation: %d bytes of output missing here: the disk was slower than the agent]\r\n", n)
}

// trim keeps the file within max: over it, the newest half stays, after a
// line that says how much went.
func (w *transcriptWriter) trim() {
	t, ok := w.f.(supervisor.TranscriptTrimmer)
	max := w.max.Load()
	if !ok || max <= 0 || w.failed.Load() {
		return
	}
	dropped, err := t.Trim(max, max/2, trimNote)
	switch {
	case err != nil:
		w.failed.Store(true)
		w.log.Error("transcript trim failed; the session goes on without a transcript", "err", err)
	case dropped > 0 && !w.trimmed:
		w.trimmed = true
		w.log.Info("transcript reached transcript_max; dropping its oldest output", "transcript_max", max)
	}
}

// trimNote is the line a trimmed transcript starts with.
func trimNote(dropped int64) []byte {
	return fmt.Appendf(nil, "[buildstation: %d older bytes of output dropped here: the transcript keeps the newest, within transcript_max]\r\n", dropped)
}

func (w *transcriptWriter) loop() {
	defer close(w.done)
	for {
		w.mu.Lock()
		batch := append(w.batch[:0], w.full...)
		clear(w.full)
		w.full = w.full[:0]
		if len(w.cur) > 0 {
			batch = append(batch, w.cur)
			w.cur = nil
		}
		n, closing, quiet := w.queued, w.closing, w.quiet
		w.queued, w.batch, w.quiet = 0, nil, false
		w.armed = false // a flush still due finds less or nothing: harmless
		w.mu.Unlock()
		for _, b := range batch {
			if w.failed.Load() {
				break
			}
			if _, err := w.f.Write(b); err != nil {
				// A full disk must not stop a session: say it once, go on.
				w.failed.Store(true)
				w.log.Error("transcript write failed; the session goes on without a transcript", "err", err)
			}
		}
		if n > 0 {
			w.trim()
		}
		w.mu.Lock()
		w.recycleLocked(batch, !quiet || n >= w.flushAt)
		clear(batch)
		w.batch = batch[:0]
		// What gathered during the write: at once when it is a piece
		// worth a write (or closing), else when the timer says.
		more := w.queued >= w.flushAt || w.queued > 0 && w.closing
		if !more && (w.queued > 0 || len(w.free) > 0) {
			w.armLocked() // also to let go of a flood's blocks
		}
		w.mu.Unlock()
		if more {
			continue
		}
		if closing {
			return
		}
		<-w.wake
	}
}

// recycleLocked keeps the written blocks for the next: all of a flood's,
// within the backlog; once output paused (see timeUp), one small buffer at
// most, so that idle sessions hold no burst's blocks.
func (w *transcriptWriter) recycleLocked(written [][]byte, flood bool) {
	if flood {
		for _, b := range written {
			if cap(b) == w.flushAt && (len(w.free)+1)*w.flushAt <= w.limit {
				w.free = append(w.free, b[:0])
			}
		}
		return
	}
	clear(w.free)
	w.free = nil
	if w.cur == nil && len(written) == 1 && cap(written[0]) <= keepTranscriptCap {
		w.cur = written[0][:0]
	}
}

// Close writes what is pending, then closes the file.
func (w *transcriptWriter) Close() error {
	w.mu.Lock()
	w.closing = true
	w.noteGapLocked()
	w.mu.Unlock()
	w.poke()
	<-w.done
	w.flush.Stop()
	if n := w.dropped.Load(); n > 0 {
		w.log.Warn("transcript is missing output the disk could not keep up with", "dropped_bytes", n)
	}
	return w.f.Close()
}
