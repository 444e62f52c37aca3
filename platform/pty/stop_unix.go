//go:build unix

package pty

import (
	"errors"
	"fmt"
	"syscall"
	"time"

	"github.com/buildstation/buildstation/platform/proctree"
)

// How long Stop waits, after SIGKILL, for the tree to be gone. SIGKILL
// cannot be caught, so this only covers the kernel tearing processes down.
const (
	killWait = 5 * time.Second
	// killPoll is how often Stop rereads the process table while it waits
	// for killed processes to vanish; a table read costs about a
	// millisecond.
	killPoll = 10 * time.Millisecond
)

// Stop ends the agent's whole tree: SIGTERM to its process group and to
// every other process of its tree, up to grace for the agent to exit, then
// SIGKILL to the group and to every process of the tree still there.
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
	// anything new in the family, e.g. started during the grace period.
	all, _ := proctree.Current()
	targets := make(map[int]proctree.Proc)
	for pid, old := range before {
		if now, ok := all[pid]; ok && now.StartTime == old.StartTime && !now.Zombie() {
			targets[pid] = now
		}
	}
	for _, pid := range append(proctree.Family(all, p.pid), p.strays(all)...) {
		if !all[pid].Zombie() {
			targets[pid] = all[pid]
		}
	}
	errs = append(errs, p.signal(targets, syscall.SIGKILL)...)

	if err := p.awaitGone(targets); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("stop agent %d: %w", p.pid, err)
	}
	return nil
}

// family snapshots the processes Stop must reach besides the agent itself.
// If the table cannot be read the group signal still does most of the work.
func (p *proc) family() map[int]proctree.Proc {
	all, err := proctree.Current()
	if err != nil {
		return nil
	}
	fam := make(map[int]proctree.Proc)
	for _, pid := range append(proctree.Family(all, p.pid), p.strays(all)...) {
		fam[pid] = all[pid]
	}
	return fam
}

// strays are the session's processes that left its tree and group: they
// still carry its marker in their environment (Linux; none elsewhere).
func (p *proc) strays(all map[int]proctree.Proc) []int {
	if p.marker == "" {
		return nil
	}
	var out []int
	for _, pid := range proctree.Marked("", p.marker) {
		if _, ok := all[pid]; ok {
			out = append(out, pid)
		}
	}
	return out
}

// signal sends each signal to the agent's process group, then to every
// member of tree (members still in the group get it twice, which is
// harmless). ESRCH, a process already gone, is not an error. The group
// signal is safe even after the agent was reaped: the kernel does not reuse
// a pid while a process group of that id still has members.
func (p *proc) signal(tree map[int]proctree.Proc, sigs ...syscall.Signal) []error {
	var errs []error
	send := func(pid int, sig syscall.Signal) {
		if err := syscall.Kill(pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
			errs = append(errs, fmt.Errorf("%v to %d: %w", sig, pid, err))
		}
	}
	for _, sig := range sigs {
		send(-p.pid, sig)
		for pid := range tree {
			send(pid, sig)
		}
	}
	return errs
}

// awaitGone waits until the agent is reaped and no target runs any more (a
// zombie counts as gone: it no longer runs and its parent or init will reap
// it), or until killWait.
func (p *proc) awaitGone(targets map[int]proctree.Proc) error {
	deadline := time.NewTimer(killWait)
	defer deadline.Stop()
	select {
	case <-p.done:
	case <-deadline.C:
		return fmt.Errorf("agent %d still running %v after SIGKILL", p.pid, killWait)
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
			return fmt.Errorf("%d processes of agent %d still running %v after SIGKILL", left, p.pid, killWait)
		}
	}
}
