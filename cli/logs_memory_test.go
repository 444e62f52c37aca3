package cli_test

import (
	"bytes"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// logs streams a transcript through the emulator with a bounded
// scrollback: what the issue measured (200,000 short lines: 74 MB; one
// 3 MB line: 386 MB) renders in a few megabytes of heap, every line kept.
func TestLogsBoundedMemory(t *testing.T) {
	s := startBoard(t)
	var raw bytes.Buffer
	const short = 200_000
	for i := range short {
		raw.WriteString("line ")
		raw.WriteString(strings.Repeat("x", i%7))
		raw.WriteString("\r\n")
	}
	const long = 3 << 20
	raw.WriteString(strings.Repeat("y", long))
	raw.WriteString("\r\n")
	s.env.Transcript(t, "t2.1", raw.Bytes())

	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	out := s.ok(t, "logs", "t2")
	close(stop)
	<-sampled

	wantLines := short + (long+119)/120
	if got := strings.Count(out, "\n"); got != wantLines {
		t.Errorf("logs printed %d lines, want %d", got, wantLines)
	}
	if !strings.HasPrefix(out, "line\nline x\n") || !strings.HasSuffix(out, strings.Repeat("y", long%120)+"\n") {
		t.Errorf("logs printed %q … %q", out[:40], out[len(out)-40:])
	}
	// The transcript itself is in this process three times over (the
	// station's read of its file, its JSON, the client's), and the output
	// once.
	grew := int64(peak.Load()) - int64(base.HeapInuse)
	if limit := int64(64 << 20); grew > limit {
		t.Errorf("logs of a %d MB transcript grew the heap by %d MB, want under %d MB", raw.Len()>>20, grew>>20, limit>>20)
	}
}
