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
const (
	transcriptFlush   = 50 * time.Millisecond
	transcriptFlushAt = 256 << 10
	// keepTranscriptCap is the buffer a quiet writer keeps; a burst's larger
	// one is let go once written, so idle sessions hold none.
	keepTranscriptCap = 64 << 10
)

// transcriptWriter writes a session's transcript off the PTY reader's
// goroutine: Write copies the chunk into a pending buffer and returns at
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

	mu      sync.Mutex
	pending []byte
	spare   []byte
	closing bool
	gap     int  // bytes dropped since the last chunk kept, not yet noted
	armed   bool // flush is set to wake the loop (see transcriptFlush)
	flush   *time.Timer
	flushAt int // pending that wakes the loop at once

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
	w.flush = time.AfterFunc(time.Hour, w.poke)
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
	if len(w.pending)+len(p) > w.limit {
		w.gap += len(p)
		w.mu.Unlock()
		if w.dropped.Add(int64(len(p))) == int64(len(p)) {
			w.log.Warn("transcript write is behind the agent; dropping output from the transcript (the console keeps it)")
		}
		return len(p), nil
	}
	w.noteGapLocked()
	w.pending = append(w.pending, p...)
	now := len(w.pending) >= w.flushAt
	if !now {
		w.armLocked()
	}
	w.mu.Unlock()
	if now {
		w.poke()
	}
	return len(p), nil
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
		w.pending = append(w.pending, gapNote(w.gap)...)
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
		buf, closing := w.pending, w.closing
		w.pending, w.spare = w.spare[:0], nil
		w.armed = false // a flush still due finds less or nothing: harmless
		w.mu.Unlock()
		if len(buf) > 0 && !w.failed.Load() {
			if _, err := w.f.Write(buf); err != nil {
				// A full disk must not stop a session: say it once, go on.
				w.failed.Store(true)
				w.log.Error("transcript write failed; the session goes on without a transcript", "err", err)
			}
			w.trim()
		}
		w.mu.Lock()
		// The other buffer, reused while output floods (a full
		// piece was written); after a partial one the stream has
		// gone quiet, and a burst-sized buffer is let go.
		switch {
		case len(buf) >= w.flushAt && cap(buf) <= 2*w.limit, cap(buf) <= keepTranscriptCap:
			w.spare = buf[:0]
		}
		if len(buf) < w.flushAt && len(w.pending) == 0 && cap(w.pending) > keepTranscriptCap {
			w.pending = nil
		}
		// What gathered during the write: at once when it is a piece
		// worth a write (or closing), else when the timer says.
		more := len(w.pending) >= w.flushAt || len(w.pending) > 0 && w.closing
		if !more && len(w.pending) > 0 {
			w.armLocked()
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
