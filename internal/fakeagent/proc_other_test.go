//go:build unix && !linux

package fakeagent

import (
	"syscall"
	"testing"
	"time"
)

func childRunning(t *testing.T, script string) int {
	t.Skip("finding a child process by its arguments needs /proc")
	return 0
}

// parentOf is unknown without /proc; 0 skips the check.
func parentOf(t *testing.T, pid int) int { return 0 }

func childCPU(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
