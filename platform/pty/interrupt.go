package pty

import (
	"io"
	"time"
)

// ctrlC typed into a console is the polite signal on Windows: the console
// turns it into CTRL_C_EVENT for every process attached to it (the closest
// thing to SIGTERM to a process group), and an agent's TUI reads it as
// interrupt.
const ctrlC = "\x03"

// ctrlCGap is the pause between the two Ctrl+C: Claude Code takes the first
// as "interrupt the turn" and exits on a second one that comes soon after
// ("Press Ctrl-C again to exit"); typed as one burst it would be a paste.
const ctrlCGap = 300 * time.Millisecond

// interrupt types Ctrl+C, and again ctrlCGap later unless the agent has
// exited (done closed), then waits what is left of grace for it to exit.
// A zero grace sends nothing. It is here, not in a _windows file, so the
// sequence is tested on every OS.
func interrupt(w io.Writer, done <-chan struct{}, grace time.Duration) {
	if grace <= 0 {
		return
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	for i, gap := 0, time.NewTimer(0); i < 2; i++ {
		select {
		case <-done:
			gap.Stop()
			return
		case <-t.C:
			gap.Stop()
			return
		case <-gap.C:
		}
		_, _ = w.Write([]byte(ctrlC))
		gap.Reset(ctrlCGap)
		if i == 1 {
			gap.Stop()
		}
	}
	select {
	case <-done:
	case <-t.C:
	}
}
