//go:build unix

package proctest

import (
	"errors"
	"fmt"
	"syscall"
	"testing"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/platform/proctree"
)

// Running reports whether pid is a live, non-zombie process. A zombie has
// exited and only waits for its parent (or init) to reap it.
func Running(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	procs, err := proctree.Current()
	if err != nil {
		return true
	}
	p, ok := procs[pid]
	return ok && !p.Zombie()
}

// WaitTree polls the process table until pred holds for leader's
// descendants, and returns them.
func WaitTree(t testing.TB, leader int, pred func(map[int]proctree.Proc, []int) bool) []int {
	t.Helper()
	var kids []int
	// Polling a process table, not a timer.
	testwait.Eventually(t, Deadline, func() error {
		procs, err := proctree.Current()
		if err != nil {
			t.Fatal(err)
		}
		if kids = proctree.DescendantsOf(procs, leader); !pred(procs, kids) {
			return fmt.Errorf("descendants %v", kids)
		}
		return nil
	}, fmt.Sprintf("the tree of %d to reach the expected shape", leader))
	return kids
}

// CountComm counts the processes among pids whose command name is comm.
func CountComm(procs map[int]proctree.Proc, pids []int, comm string) int {
	n := 0
	for _, pid := range pids {
		if procs[pid].Comm == comm {
			n++
		}
	}
	return n
}

// AssertAllDead fails unless every pid has stopped running.
func AssertAllDead(t testing.TB, pids ...int) {
	t.Helper()
	for _, pid := range pids {
		if Running(pid) {
			t.Errorf("process %d still running after Stop", pid)
		}
	}
}
