//go:build unix

package tmux

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"time"

	"github.com/buildstation/buildstation/platform/proctree"
)

// How long Stop waits, after SIGKILL, for the tree to be gone, and how
// often it rereads the process table meanwhile (a read costs about a
// millisecond). As in package pty.
const (
	killWait = 5 * time.Second
	killPoll = 10 * time.Millisecond
)

// Stop ends the agent's whole tree, as package pty does: SIGTERM (and
// SIGHUP) to the pane's process group, which tmux made the pane process
// lead, and to every other process of its tree; up to grace for the agent
// to exit; then SIGKILL to all that is left. Then the window goes.
//
// The tree is collected before the first signal: a grandchild that called
// setsid has left the group, and once its parent dies it is reparented to
// init and the walk from the agent no longer finds it.
//
// Stop is idempotent: later calls return the first call's result at once.
func (p *proc) Stop(grace time.Duration) error {
	p.stopMu.Lock()
	defer p.stopMu.Unlock()
	if !p.stopped {
		p.stopErr = p.stop(grace)
		p.stopped = true
	}
	return p.stopErr
}

func (p *proc) stop(grace time.Duration) error {
	before := p.family()
	var errs []error
	errs = append(errs, p.signal(before, syscall.SIGTERM, syscall.SIGHUP)...)

	if grace > 0 {
		t := time.NewTimer(grace)
		select {
		case <-p.done:
		case <-t.C:
		}
		t.Stop()
	}

	// Kill what is left: the members collected before that are still the
	// same processes (a pid can be reused, its start time cannot), plus
	// anything new in the family.
	all, _ := proctree.Current()
	targets := make(map[int]proctree.Proc)
	for pid, old := range before {
		if now, ok := all[pid]; ok && now.StartTime == old.StartTime && !now.Zombie() {
			targets[pid] = now
		}
	}
	for _, pid := range proctree.Family(all, p.w.pid) {
		if !all[pid].Zombie() {
			targets[pid] = all[pid]
		}
	}
	errs = append(errs, p.signal(targets, syscall.SIGKILL)...)
	if err := p.awaitGone(targets); err != nil {
		errs = append(errs, err)
	}

	// The pane stayed for its exit status (remain-on-exit); it is read.
	ctx, cancel := context.WithTimeout(context.Background(), checkTimeout)
	defer cancel()
	if _, err := p.sp.run(ctx, "kill-window", "-t", p.w.id); err != nil && !missing(err) {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("stop agent %d: %w", p.w.pid, err)
	}
	return nil
}

// family snapshots the processes Stop must reach besides the agent. If the
// table cannot be read the group signal still does most of the work.
func (p *proc) family() map[int]proctree.Proc {
	all, err := proctree.Current()
	if err != nil {
		return nil
	}
	fam := make(map[int]proctree.Proc)
	for _, pid := range proctree.Family(all, p.w.pid) {
		fam[pid] = all[pid]
	}
	return fam
}

// signal sends each signal to the agent's process group, then to every
// member of tree. ESRCH, a process already gone, is not an error.
func (p *proc) signal(tree map[int]proctree.Proc, sigs ...syscall.Signal) []error {
	var errs []error
	send := func(pid int, sig syscall.Signal) {
		if err := syscall.Kill(pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
			errs = append(errs, fmt.Errorf("%v to %d: %w", sig, pid, err))
		}
	}
	for _, sig := range sigs {
		send(-p.w.pid, sig)
		for pid := range tree {
			send(pid, sig)
		}
	}
	return errs
}

// awaitGone waits until the watcher has seen the agent end and no target
// runs any more (a zombie counts as gone), or until killWait.
func (p *proc) awaitGone(targets map[int]proctree.Proc) error {
	deadline := time.NewTimer(killWait)
	defer deadline.Stop()
	select {
	case <-p.done:
	case <-deadline.C:
		return fmt.Errorf("agent %d still running %v after SIGKILL", p.w.pid, killWait)
	}
	tick := time.NewTicker(killPoll)
	defer tick.Stop()
	for {
		all, err := proctree.Current()
		if err != nil {
			return nil // cannot look: the kill was sent
		}
		left := 0
		for pid, t := range targets {
			if now, ok := all[pid]; ok && now.StartTime == t.StartTime && !now.Zombie() {
				left++
			}
		}
		if left == 0 {
			return nil
		}
		select {
		case <-tick.C:
		case <-deadline.C:
			return fmt.Errorf("%d processes of agent %d still running %v after SIGKILL", left, p.w.pid, killWait)
		}
	}
}
