//go:build unix

package rig

import (
	"bytes"
	"fmt"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/buildstation/buildstation/platform/proctree"
)

// Alive reports whether pid is a live (not zombie) process: a session's
// agent or its child, which the station must end with the session.
func Alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return !os.IsNotExist(err) // no /proc (macOS): kill said it runs
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || i+2 >= len(b) || b[i+2] != 'Z'
}

// WaitEnded waits up to d until none of pids is alive (what names them),
// or fails the test naming those that still run.
func WaitEnded(t *testing.T, d time.Duration, what string, pids ...int) {
	t.Helper()
	Eventually(t, d, func() error {
		var alive []int
		for _, pid := range pids {
			if Alive(pid) {
				alive = append(alive, pid)
			}
		}
		if len(alive) > 0 {
			return fmt.Errorf("pids %v of %v still run", alive, pids)
		}
		return nil
	}, what+" to end")
}

// Process is pid as the process table shows it now (Linux's /proc); ok is
// false once it is gone. Its StartTime tells it from a later process that
// reused the pid.
func Process(pid int) (p proctree.Proc, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return p, false
	}
	p, err = proctree.ParseStat(b)
	return p, err == nil
}

// Running reports whether p, the same process (pid and start time), still
// runs: a zombie has exited.
func Running(p proctree.Proc) bool {
	now, ok := Process(p.PID)
	return ok && now.StartTime == p.StartTime && !now.Zombie()
}
