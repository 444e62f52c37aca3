//go:build unix

package treekill

import (
	"errors"
	"fmt"
	"syscall"
	"time"

	"github.com/buildstation/buildstation/platform/proctree"
)

// How long Stop waits, after SIGKILL, for the tree to be gone, and how often
// it rereads the process table meanwhile (a read costs about a millisecond).
// SIGKILL cannot be caught, so this only covers the kernel tearing down.
const (
	killWait = 5 * time.Second
	killPoll = 10 * time.Millisecond
)

// Tree is an agent's processes: Leader leads its own process group, and
// every process it starts inherits Marker ("KEY=VALUE", unique to the
// session) in its environment.
type Tree struct {
	Leader int
	Marker string
}

// Stop sends SIGTERM and SIGHUP to the leader's group and to every process
// of the tree, waits up to grace for exited (the leader reaped) to close,
// then sends SIGKILL to the group, to the processes collected before that
// are still the same (a pid can be reused, its start time cannot) and to
// anything new, and waits for them to be gone.
//
// The tree is collected before the first signal: a grandchild that called
// setsid has left the group, and once its parent dies it is reparented to
// init and no walk from the leader finds it; the marker still does.
func (t Tree) Stop(grace time.Duration, exited <-chan struct{}) error {
	before := t.family()
	var errs []error
	errs = append(errs, t.signal(before, syscall.SIGTERM, syscall.SIGHUP)...)
	if grace > 0 {
		timer := time.NewTimer(grace)
		select {
		case <-exited:
		case <-timer.C:
		}
		timer.Stop()
	}
	all, _ := current()
	targets := make(map[int]proctree.Proc)
	for pid, old := range before {
		if now, ok := all[pid]; ok && now.StartTime == old.StartTime && !now.Zombie() {
			targets[pid] = now
		}
	}
	for _, pid := range t.members(all) {
		if !all[pid].Zombie() {
			targets[pid] = all[pid]
		}
	}
	errs = append(errs, t.signal(targets, syscall.SIGKILL)...)
	if err := t.awaitGone(targets, exited); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("stop agent %d: %w", t.Leader, err)
	}
	return nil
}

// family snapshots the processes to reach besides the leader. If the table
// cannot be read the group signal still does most of the work.
func (t Tree) family() map[int]proctree.Proc {
	all, err := current()
	if err != nil {
		return nil
	}
	fam := make(map[int]proctree.Proc)
	for _, pid := range t.members(all) {
		fam[pid] = all[pid]
	}
	return fam
}

// members are the leader's family (descendants, group, session) and the
// strays that carry its marker (Linux reads environments; none elsewhere).
func (t Tree) members(all map[int]proctree.Proc) []int {
	out := proctree.Family(all, t.Leader)
	if t.Marker == "" {
		return out
	}
	for _, pid := range marked(t.Marker) {
		if _, ok := all[pid]; ok {
			out = append(out, pid)
		}
	}
	return out
}

// signal sends each signal to the leader's process group, then to every
// member of tree (members still in the group get it twice, which is
// harmless). ESRCH, a process already gone, is not an error. The group
// signal is safe even after the leader was reaped: the kernel does not reuse
// a pid while a process group of that id still has members.
func (t Tree) signal(tree map[int]proctree.Proc, sigs ...syscall.Signal) []error {
	var errs []error
	send := func(pid int, sig syscall.Signal) {
		if err := syscall.Kill(pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
			errs = append(errs, fmt.Errorf("%v to %d: %w", sig, pid, err))
		}
	}
	for _, sig := range sigs {
		send(-t.Leader, sig)
		for pid := range tree {
			send(pid, sig)
		}
	}
	return errs
}

// awaitGone waits until exited closes and no target runs any more (a zombie
// counts as gone: it no longer runs and its parent or init reaps it), or
// until killWait.
func (t Tree) awaitGone(targets map[int]proctree.Proc, exited <-chan struct{}) error {
	deadline := time.NewTimer(killWait)
	defer deadline.Stop()
	select {
	case <-exited:
	case <-deadline.C:
		return fmt.Errorf("agent %d still running %v after SIGKILL", t.Leader, killWait)
	}
	tick := time.NewTicker(killPoll)
	defer tick.Stop()
	for {
		all, err := current()
		if err != nil {
			return nil // cannot look: the kill was sent
		}
		left := 0
		for pid, p := range targets {
			if now, ok := all[pid]; ok && now.StartTime == p.StartTime && !now.Zombie() {
				left++
			}
		}
		if left == 0 {
			return nil
		}
		select {
		case <-tick.C:
		case <-deadline.C:
			return fmt.Errorf("%d processes of agent %d still running %v after SIGKILL", left, t.Leader, killWait)
		}
	}
}
