package pty

import "time"

// JobAccounter is what a Windows session offers the evidence layer: the CPU time
// of the agent's whole tree, read from its Job Object's accounting (which
// counts processes that already exited, so a finished compiler still
// counts). A Proc from this package on Windows implements it.
type JobAccounter interface {
	JobCPU() time.Duration
}

// cpuTime adds user and kernel time given in 100 ns units, as Windows
// reports them.
func cpuTime(user, kernel int64) time.Duration {
	return time.Duration(user+kernel) * 100
}
