//go:build linux

package tmux

import (
	"io"
	"time"
)

// Output gathering. tmux writes a pane's output into pipe-pane's socket in
// pieces of a few kilobytes as it parses them (21,500 pieces for 100 MB,
// measured), and the station woke once for each: in a flood that cost it
// more CPU than the bytes did (syscalls and the scheduler, three quarters
// of its time), CPU taken from the core the tmux server, the floor of a
// flood, shares with the agent. So in a flood the reader lets the pipe
// fill for gatherFor before each read and takes tens of kilobytes at a
// time; a session printing now and then is read as its output comes.

// gatherFor is how long a read in a flood waits first: far below what a
// person sees, and at tmux's own rate (25–35 MB/s here) some 60 KB, which
// pipe-pane's socket holds on Linux (paneReader).
const gatherFor = 2 * time.Millisecond

// waiting is how soon a read must return for its data to have been
// waiting in the pipe, not just arrived: a read that blocks parks in the
// poller, which takes longer.
const waiting = 200 * time.Microsecond

// gatherer reads r (one reader at a time), waiting gatherFor before a
// read that follows a flood's: one that found its data waiting and did
// not fill the caller's buffer. A read that fills it is followed at once,
// so a pane faster than a buffer per gatherFor is never slowed.
type gatherer struct {
	r     io.Reader
	flood bool
	sleep func(time.Duration) // time.Sleep; a test's own
	now   func() time.Time
}

func newGatherer(r io.Reader) *gatherer {
	return &gatherer{r: r, sleep: time.Sleep, now: time.Now}
}

func (g *gatherer) Read(b []byte) (int, error) {
	if g.flood {
		g.sleep(gatherFor)
	}
	t0 := g.now()
	n, err := g.r.Read(b)
	g.flood = err == nil && n > 0 && n < len(b) && g.now().Sub(t0) < waiting
	return n, err
}
