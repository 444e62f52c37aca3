//go:build unix

package proctest

import (
	"errors"
	"syscall"
	"testing"
	"time"

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
	end := time.Now().Add(Deadline)
	for {
		procs, err := proctree.Current()
		if err != nil {
			t.Fatal(err)
		}
		kids := proctree.DescendantsOf(procs, leader)
		if pred(procs, kids) {
			return kids
		}
		if time.Now().After(end) {
			t.Fatalf("tree of %d never reached the expected shape; descendants %v", leader, kids)
		}
		time.Sleep(10 * time.Millisecond) // polling a process table, not a timer
	}
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
