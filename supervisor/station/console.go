package station

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"regexp"
	"sync"
	"sync/atomic"
	"time"
)

// ringSize is how much of a session's output is kept in memory for consoles:
// a few hundred full screens, enough to redraw the last screen at once.
const ringSize = 256 << 10

// console holds one session's recent output and its viewers. The PTY reader
// is its only writer and never waits on anyone: the ring is a copy under a
// short lock, the transcript a copy handed to its writer (transcriptWriter),
// viewers a non-blocking send.
type console struct {
	mu      sync.Mutex
	buf     []byte // ring storage, len == cap once full
	start   int    // index of the oldest byte once full
	full    bool
	viewers map[*viewer]struct{}
	closed  bool

	transcript io.Writer
	log        *slog.Logger
	diskErr    atomic.Bool // the transcript failed once; said once, then ignored

	// lastOutput is when the agent last printed: not the echo of what
	// the station typed, nor anything in the moment after our typing
	// (a TUI redrawing its input box around our text). It is the
	// session's last_output_at, what a card calls "printing" or "silent".
	lastOutput atomic.Int64 // unix nanos
	lastLive   atomic.Int64 // unix nanos of the last byte that was not our own echo
	echoUntil  atomic.Int64 // unix nanos: output before this is taken for our typing's echo
	echo       echoFilter
	bytes      atomic.Int64
}

type viewer struct {
	c       chan []byte
	dropped atomic.Int64
}

func newConsole(transcript io.Writer, log *slog.Logger) *console {
	return &console{buf: make([]byte, 0, ringSize), viewers: map[*viewer]struct{}{}, transcript: transcript, log: log}
}

// write takes one chunk from the PTY reader.
func (c *console) write(p []byte, now time.Time) {
	if !c.echo.isEcho(p) {
		c.lastLive.Store(now.UnixNano())
		if now.UnixNano() >= c.echoUntil.Load() {
			c.lastOutput.Store(now.UnixNano())
		}
	}
	c.bytes.Add(int64(len(p)))
	if c.transcript != nil && !c.diskErr.Load() {
		if _, err := c.transcript.Write(p); err != nil {
			// A full disk must not stop a session: say it once, go on.
			c.diskErr.Store(true)
			c.log.Error("transcript write failed; the session goes on without a transcript", "err", err)
		}
	}
	c.mu.Lock()
	c.appendRing(p)
	for v := range c.viewers {
		chunk := bytes.Clone(p)
		select {
		case v.c <- chunk:
		default:
			v.dropped.Add(1)
		}
	}
	c.mu.Unlock()
}

// restore puts back what an adopted session's transcript ends with, so its
// console shows the last screens again at once, and when that was written.
func (c *console) restore(tail []byte, lastOutput time.Time) {
	c.mu.Lock()
	c.appendRing(tail)
	c.mu.Unlock()
	c.lastOutput.Store(lastOutput.UnixNano())
}

func (c *console) appendRing(p []byte) {
	if len(p) >= ringSize {
		c.buf = append(c.buf[:0], p[len(p)-ringSize:]...)
		c.start, c.full = 0, true
		return
	}
	if !c.full {
		if len(c.buf)+len(p) <= ringSize {
			c.buf = append(c.buf, p...)
			return
		}
		// Fill to capacity, then wrap.
		n := ringSize - len(c.buf)
		c.buf = append(c.buf, p[:n]...)
		p = p[n:]
		c.full, c.start = true, 0
	}
	for len(p) > 0 {
		n := copy(c.buf[c.start:], p)
		p = p[n:]
		c.start = (c.start + n) % ringSize
	}
}

// snapshot returns the ring's contents, oldest first.
func (c *console) snapshot() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.snapshotLocked()
}

func (c *console) snapshotLocked() []byte {
	if !c.full {
		return bytes.Clone(c.buf)
	}
	out := make([]byte, 0, ringSize)
	out = append(out, c.buf[c.start:]...)
	return append(out, c.buf[:c.start]...)
}

// attach registers a viewer and returns what is on screen so far. Taking the
// snapshot and registering under one lock means no byte is lost or doubled
// between the replay and the live feed.
func (c *console) attach(buffer int) (replay []byte, v *viewer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v = &viewer{c: make(chan []byte, buffer)}
	if c.closed {
		close(v.c)
	} else {
		c.viewers[v] = struct{}{}
	}
	return c.snapshotLocked(), v
}

func (c *console) detach(v *viewer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.viewers[v]; ok {
		delete(c.viewers, v)
		close(v.c)
	}
}

// close ends every viewer's feed; the session is over.
func (c *console) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for v := range c.viewers {
		delete(c.viewers, v)
		close(v.c)
	}
}

func (c *console) lastOutputAt() time.Time { return unixTime(c.lastOutput.Load()) }

// typing says the station types now: until until, output is its echo.
func (c *console) typing(until time.Time) { c.echoUntil.Store(until.UnixNano()) }

// lastLiveAt is the time of the last output that was the agent's own, not
// the echo of what the station typed.
func (c *console) lastLiveAt() time.Time { return unixTime(c.lastLive.Load()) }

func unixTime(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n)
}

var ansiRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[@-Z\\-_]`)
})

// lastLine is the last non-blank line the session printed, without terminal
// escapes: what a block reason quotes so a person sees where it stopped.
func lastLine(out []byte) string {
	text := ansiRE().ReplaceAll(out, nil)
	lines := bytes.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '\r' })
	for i := len(lines) - 1; i >= 0; i-- {
		l := bytes.TrimSpace(lines[i])
		if len(l) > 0 {
			if len(l) > 200 {
				l = append(l[:200:200], "…"...)
			}
			return string(l)
		}
	}
	return ""
}

// consoleKeys is a console's Input: a person's keys go to the session's
// goroutine, which queues them for its one writer, in order with its own
// typing; the console's goroutine never writes to the terminal itself.
type consoleKeys struct {
	s    *session
	life context.Context // the station's: a stop ends the wait
}

func (k consoleKeys) Write(p []byte) (int, error) {
	if err := k.s.send(k.life, command{kind: cmdKeys, text: string(p)}); err != nil {
		return 0, err
	}
	return len(p), nil
}
