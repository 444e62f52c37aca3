package station

import (
	"bytes"
	"log/slog"
	"testing"
	"time"

	"github.com/buildstation/buildstation/platform/stationfs"
	"github.com/buildstation/buildstation/supervisor/config"
)

// BenchmarkConsoleFlood is a session's output path at full speed: a
// terminal's reads (4 KiB at most each) into the console, its ring and its
// transcript on disk, bounded by the default transcript_max, as the reader
// of a flooding agent sees it, with no terminal to slow it. Its allocations
// are what the reader and the transcript's writer churn per byte.
func BenchmarkConsoleFlood(b *testing.B) {
	fs, err := stationfs.New(b.TempDir(), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	chunk := bytes.Repeat([]byte("0123456789 the quick brown fox jumps over the lazy dog abcdefgh\r\n"), 64)[:4095]
	const total = 100 << 20
	b.SetBytes(total)
	b.ReportAllocs()
	var dropped int64
	for i := 0; b.Loop(); i++ {
		f, err := fs.AppendTranscript("t1." + string(rune('1'+i%9)))
		if err != nil {
			b.Fatal(err)
		}
		tw := newTranscriptWriter(f, slog.New(slog.DiscardHandler))
		tw.max.Store(config.DefaultTranscriptMax)
		c := newConsole(tw, slog.New(slog.DiscardHandler))
		for n := 0; n < total; n += len(chunk) {
			c.write(chunk, time.Now())
		}
		if err := tw.Close(); err != nil {
			b.Fatal(err)
		}
		dropped += tw.dropped.Load()
	}
	// Unthrottled, the reader outruns the disk: what the transcript
	// could not take is said, not failed.
	b.ReportMetric(float64(dropped)/float64(b.N)/total*100, "%dropped")
}
