package station

import (
	"io"
	"log/slog"
	"sync/atomic"
	"time"
)

// typingBacklog bounds how many writes may wait for a terminal whose agent
// does not read its input: far more than a person or the watchdog types
// into a healthy one.
const typingBacklog = 64

// keys is one write into a session's terminal.
type keys struct {
	text string
	// echo marks the station's own typing (a nudge, a send): its echo is
	// not life (echoFilter). A person's keys and the prompt are not marked.
	echo bool
	// enter, when set, follows the text with Enter this long after the
	// text is written: a TUI takes one fast burst of "text\r" as a paste
	// and does not submit it. Nothing else is written in between.
	enter time.Duration
	// written, when set, hears once the text is written (nil, whatever
	// the terminal said: a failed write is logged), so a caller may wait
	// for its keys to be typed without the session waiting with it.
	written chan<- error
}

// typist is a session's one writer into its terminal. Every write goes
// through its queue, in order, so the session's goroutine never waits on
// an agent that does not read (a PTY's input buffer holds a few KiB), and a
// stuck terminal holds one goroutine, not one per write. The queue is
// bounded: past typingBacklog waiting writes, a write is refused.
type typist struct {
	w     io.Writer
	echo  *echoFilter
	log   *slog.Logger
	queue chan keys
	// stuck is set while writes are refused, so that is said once.
	stuck atomic.Bool
}

func newTypist(w io.Writer, echo *echoFilter, log *slog.Logger) *typist {
	return &typist{w: w, echo: echo, log: log, queue: make(chan keys, typingBacklog)}
}

// add queues k; false when the backlog is full (the agent does not read).
func (t *typist) add(k keys) bool {
	select {
	case t.queue <- k:
		t.stuck.Store(false)
		return true
	default:
		if t.stuck.CompareAndSwap(false, true) {
			t.log.Warn("typing into the session is stuck; the agent does not read its input")
		}
		return false
	}
}

// run writes what is queued until done is closed. A write stuck when done
// closes ends when the terminal is closed (stop, detach).
func (t *typist) run(done <-chan struct{}) {
	for {
		select {
		case <-done:
			return
		case k := <-t.queue:
			ok := t.write(k.text, k.echo)
			if k.written != nil {
				k.written <- nil // buffered: the caller may have gone
			}
			if !ok || k.enter == 0 {
				continue
			}
			select {
			case <-time.After(k.enter):
			case <-done:
				return
			}
			t.write("\r", k.echo)
		}
	}
}

func (t *typist) write(text string, echo bool) bool {
	if echo {
		// Before the write: the echo may come back before it returns.
		t.echo.typed(text)
	}
	if _, err := io.WriteString(t.w, text); err != nil {
		t.log.Warn("type into session", "err", err)
		return false
	}
	return true
}
