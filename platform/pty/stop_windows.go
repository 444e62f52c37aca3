package pty

import (
	"errors"
	"fmt"
	"time"

	"github.com/buildstation/buildstation/platform/proctree"
)

// killWait bounds how long Stop waits for the agent to be gone after the kill.
const killWait = 5 * time.Second

// Stop ends the agent's whole tree: Ctrl+C twice into its console (see
// interrupt), up to grace
// for the agent to exit, then TerminateJobObject. The agent is in the job
// from its first instruction (it starts suspended), so the job holds the
// tree; TerminateProcess on every descendant collected before the Ctrl+C is
// a second net for a process that left the job (a job-breakaway flag on a
// nested job the agent made itself).
//
// Stop is idempotent (treekill.Once): later calls return the first call's
// result.
func (p *proc) Stop(grace time.Duration) error {
	return p.stopOnce.Stop(func() error { return p.stop(grace) })
}

func (p *proc) stop(grace time.Duration) error {
	// Collected first: Windows never reparents, but a dead parent's pid can
	// be reused, after which the links no longer lead to its children.
	var before map[int]proctree.Proc
	if all, err := proctree.Current(); err == nil {
		before = make(map[int]proctree.Proc)
		for _, pid := range proctree.DescendantsOf(all, p.pid) {
			before[pid] = all[pid]
		}
	}

	interrupt(p, p.done, grace)

	var errs []error
	if err := p.c.terminateJob(); err != nil {
		errs = append(errs, fmt.Errorf("terminate job: %w", err))
	}
	select {
	case <-p.done:
	default:
		if err := terminateHandle(p.c.process); err != nil {
			errs = append(errs, fmt.Errorf("terminate %d: %w", p.pid, err))
		}
	}
	// A pid may have been reused since the walk; only a process with the
	// same parent and image name is taken to be the same one.
	if all, err := proctree.Current(); err == nil {
		for pid, old := range before {
			if now, ok := all[pid]; ok && now.PPID == old.PPID && now.Comm == old.Comm {
				if err := terminate(pid); err != nil {
					errs = append(errs, fmt.Errorf("terminate %d: %w", pid, err))
				}
			}
		}
	}

	t := time.NewTimer(killWait)
	defer t.Stop()
	select {
	case <-p.done:
	case <-t.C:
		errs = append(errs, fmt.Errorf("agent still running %v after the kill", killWait))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("stop agent %d: %w", p.pid, err)
	}
	return nil
}
