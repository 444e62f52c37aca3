package gitwt

import (
	"strings"
	"sync"
	"unicode/utf8"
)

// Limits of a gate's Tail: enough of the end of a test run to show what
// failed, small enough for a prompt and the board.
const (
	tailBytes = 4 << 10
	tailLines = 40
)

// tailBuffer keeps the last max bytes written to it: a gate can print
// megabytes, and only the end is kept.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.max; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}

// tail is the end of out: at most tailLines lines and tailBytes bytes,
// starting at a line (or at least a character) boundary, valid UTF-8.
func tail(out string) string {
	out = strings.TrimRight(out, " \t\r\n")
	if n := strings.Count(out, "\n"); n >= tailLines {
		i := len(out)
		for range tailLines {
			i = strings.LastIndexByte(out[:i], '\n')
		}
		out = out[i+1:]
	}
	if len(out) > tailBytes {
		out = out[len(out)-tailBytes:]
		if i := strings.IndexByte(out, '\n'); i >= 0 && i < len(out)-1 {
			out = out[i+1:]
		} else {
			for len(out) > 0 && !utf8.RuneStart(out[0]) {
				out = out[1:]
			}
		}
	}
	return strings.ToValidUTF8(out, "\uFFFD")
}
