//go:build unix

package tmux

import (
	"context"
	"os/exec"
	"syscall"
	"time"
)

// How soon watch looks again at a pane whose terminal closed before its
// exit status was known; the gap is usually a few milliseconds.
const (
	statusRetry    = 5 * time.Millisecond
	statusRetryMax = time.Second
)

// watch is the only goroutine that learns how the agent ended. It parks a
// `tmux wait-for` client on the window's exit channel, which the pane-died
// hook signals, and looks at the pane when that client returns. A slow
// ticker (Spawner.WaitCheck) looks too, for the exits no hook reports: a
// window killed by hand, a server killed outright.
func (p *proc) watch() {
	defer close(p.done)
	var waiter *exec.Cmd
	var woke chan struct{}
	park := func() {
		bin, err := tmuxPath()
		if err != nil {
			return
		}
		waiter = exec.Command(bin, "-S", p.sp.sock, "wait-for", exitChannel(p.w.id))
		waiter.Env = clientEnv()
		if err := waiter.Start(); err != nil {
			waiter = nil
			return
		}
		woke = make(chan struct{})
		go func(cmd *exec.Cmd, woke chan struct{}) {
			_ = cmd.Wait()
			close(woke)
		}(waiter, woke)
	}
	unpark := func() {
		if waiter != nil && woke != nil {
			_ = waiter.Process.Kill()
			<-woke
		}
		waiter, woke = nil, nil
	}
	defer unpark()

	check := p.sp.WaitCheck
	if check <= 0 {
		check = defaultWaitCheck
	}
	tick := time.NewTicker(check)
	defer tick.Stop()
	var soon <-chan time.Time // a quick second look, see below
	retry := statusRetry
	deadLooks := 0
	park()
	for {
		select {
		case <-woke:
			// Parked again only at the next tick: a client that keeps
			// failing at once must not spin.
			waiter, woke = nil, nil
		case <-tick.C:
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
		if err == nil && st.dead {
			// The terminal closed but tmux has not collected the exit
			// status yet, and the hook has fired already: look again in a
			// moment rather than at the next (slow) tick.
			if soon == nil && retry < statusRetryMax {
				soon = time.After(retry)
				retry *= 2
			}
			// tmux 3.3 was seen, under load, to leave an exited pane's
			// process a zombie, a SIGCHLD apparently lost; another one
			// makes it reap the pane and record the status. It is harmless
			// when none was lost, and the first look gives tmux its chance.
			if deadLooks++; deadLooks > 1 && st.server > 0 {
				_ = syscall.Kill(st.server, syscall.SIGCHLD)
			}
		}
		if woke == nil {
			park()
		}
	}
}
