package station

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// FuzzConsole writes arbitrary chunks through the console: the ring always
// holds exactly the last ringSize bytes written, and the transcript every
// byte; lastLine and dialogOnScreen never panic and return plain text.
func FuzzConsole(f *testing.F) {
	f.Add([]byte("hello\r\n\x1b[31mred\x1b[0m\r\n"), uint16(7))
	f.Add([]byte("\x1b]0;title\x07Do you want to proceed?\r\n❯ 1. Yes"), uint16(3))
	f.Add(bytes.Repeat([]byte("x"), 3000), uint16(1000))
	f.Add([]byte("\x1b[?2004h\x1b[2J\x1b[H\x1b"), uint16(1))
	f.Fuzz(func(t *testing.T, data []byte, chunk uint16) {
		var transcript bytes.Buffer
		c := newConsole(&transcript, slog.New(slog.DiscardHandler))
		// Repeat the input so the ring wraps for any seed.
		var all []byte
		n := int(chunk)%4096 + 1
		for round := 0; round < 1+ringSize/(len(data)+1)/50; round++ {
			for i := 0; i < len(data); i += n {
				p := data[i:min(i+n, len(data))]
				c.write(p, time.Now())
				all = append(all, p...)
			}
		}
		want := all[max(0, len(all)-ringSize):]
		if got := c.snapshot(); !bytes.Equal(got, want) {
			t.Fatalf("ring holds %d bytes, want the last %d written", len(got), len(want))
		}
		if !bytes.Equal(transcript.Bytes(), all) {
			t.Fatal("transcript lost bytes")
		}
		if l := lastLine(data); strings.ContainsAny(l, "\r\n\x1b") && !strings.Contains(string(data), "\x1b") {
			t.Fatalf("lastLine %q is not one plain line", l)
		}
		dialogOnScreen(data)
	})
}
