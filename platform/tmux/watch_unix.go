//go:build unix

package tmux

import (
	"context"
	"syscall"
	"time"
)

// How soon watch looks again at a pane whose terminal closed before its
// exit status was known; the gap is usually a few milliseconds.
const (
	statusRetry    = 5 * time.Millisecond
	statusRetryMax = time.Second
)

// poke asks the watcher to look at the pane: the spawner's monitor saw
// something happen to it. Pokes that come while one is pending are one.
func (p *proc) poke() {
	select {
	case p.pokes <- struct{}{}:
	default:
	}
}

// watch is the only goroutine that learns how the agent ended. It looks at
// the pane once at the start (the agent may be gone already) and then only
// when the spawner's monitor pokes it: no timer runs per session while the
// agent lives.
func (p *proc) watch() {
	defer close(p.done)
	p.sp.mon.add(p)
	defer p.sp.mon.remove(p)
	p.poke()
	// The kernel says when the agent exits (see watchExit): from then
	// on the watcher looks until tmux has the status, as it may never
	// report it by itself.
	exitc := make(chan struct{}, 1)
	if stop, ok := watchExit(p.w.pid, func() { exitc <- struct{}{} }); ok {
		defer stop()
	}
	exited := false
	var soon <-chan time.Time // a quick second look, see below
	retry := statusRetry
	deadLooks := 0
	for {
		select {
		case <-p.pokes:
		case <-exitc:
			exited = true
		case <-soon:
			soon = nil
		case <-p.closed:
			p.code, p.err = -1, ErrDetached
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), checkTimeout)
		st, err := p.sp.paneState(ctx, p.w.pane)
		cancel()
		if err == nil && (st.exited || st.gone) {
			p.settle(st, nil)
			return
		}
		if err != nil || st.dead || exited {
			// The terminal closed but tmux has not collected the exit
			// status yet (or the look failed): look again in a moment,
			// as the monitor reports a change only once.
			if soon == nil && retry < statusRetryMax {
				soon = time.After(retry)
				retry *= 2
			} else if soon == nil {
				soon = time.After(statusRetryMax)
			}
		}
		// tmux 3.3 was seen, under load, to leave an exited pane's process
		// a zombie, a SIGCHLD apparently lost; another one makes it reap
		// the pane and record the status. It is harmless when none was
		// lost, and the first look gives tmux its chance.
		if err == nil && st.dead {
			if deadLooks++; deadLooks > 1 && st.server > 0 {
				_ = syscall.Kill(st.server, syscall.SIGCHLD)
			}
		}
	}
}
