package station

import (
	"bytes"
	"sync"
)

// echoFilter tells the terminal's echo of what the station typed from the
// agent's own output, by content rather than by a clock: a wedged agent's
// terminal still echoes a nudge, and on a loaded machine that echo may come
// seconds later. Whatever arrives that is the next part of what we typed
// is discounted, however late; anything else is the agent. (A TUI's redraw
// of its input box, its chrome around our text, is covered by echoGrace.)
//
// Text is compared without escape sequences, control characters and
// spaces, so that a terminal that wraps, colours or redraws the echoed line
// still matches. The PTY reader asks; the session loop types: a mutex, held
// for a comparison only.
type echoFilter struct {
	mu      sync.Mutex
	pending []byte // what we typed and has not come back yet, normalised
	enters  int    // Enters typed whose echo (a bare line break) is still due
}

// maxPendingEcho bounds what is remembered: an echo longer than a
// terminal's input line never comes back whole anyway.
const maxPendingEcho = 16 << 10

// typed records text just written into the session.
func (e *echoFilter) typed(text string) {
	n := echoText([]byte(text))
	e.mu.Lock()
	defer e.mu.Unlock()
	e.pending = append(e.pending, n...)
	if len(e.pending) > maxPendingEcho {
		e.pending = e.pending[len(e.pending)-maxPendingEcho:]
	}
	e.enters += bytes.Count([]byte(text), []byte("\r"))
}

// isEcho reports whether chunk is only the echo of our own typing, and
// takes what it matched off the pending text.
func (e *echoFilter) isEcho(chunk []byte) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.pending) == 0 && e.enters == 0 {
		return false
	}
	n := echoText(chunk)
	switch {
	case len(n) == 0:
		// Line breaks, cursor moves: the echo of an Enter we typed (one
		// each), else the agent's own (a heartbeat line counts).
		if e.enters > 0 {
			e.enters--
			return true
		}
		return false
	case bytes.HasPrefix(e.pending, n):
		e.pending = e.pending[len(n):]
		return true
	case len(e.pending) > 0 && bytes.HasPrefix(n, e.pending):
		// Our echo and then the agent's own words in one read.
		e.pending = nil
		return false
	}
	return false
}

// echoText is b as compared for echo: no escape sequences, no control
// characters, no spaces.
func echoText(b []byte) []byte {
	b = ansiRE().ReplaceAll(b, nil)
	out := b[:0:0]
	for _, c := range b {
		if c > ' ' && c != 0x7f {
			out = append(out, c)
		}
	}
	return out
}
