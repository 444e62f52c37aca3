package fakeagent

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// childRunning returns the pid of a child of this process running the fake
// agent with script, or 0.
func childRunning(t *testing.T, script string) int {
	t.Helper()
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		pid, _ := strconv.Atoi(filepath.Base(d))
		if parentOf(t, pid) != os.Getpid() {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join(d, "cmdline"))
		args := strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")
		if len(args) == 3 && args[1] == "fake-agent" && args[2] == script {
			return pid
		}
	}
	return 0
}

// parentOf returns pid's parent, or 0 if pid is gone.
func parentOf(t *testing.T, pid int) int {
	t.Helper()
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name in parentheses may hold spaces; fields after it don't.
	s := string(stat)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}

// childCPU is the CPU time used by this process's waited-for children.
func childCPU(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
