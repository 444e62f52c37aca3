//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// clkTck is USER_HZ, the unit of /proc/<pid>/stat times: 100 on every
// Linux userland.
const clkTck = 100

// cpuTimes is a process's CPU use so far, from /proc/<pid>/stat.
type cpuTimes struct {
	self     int64 // utime + stime, in ticks
	children int64 // cutime + cstime: children it waited for
}

func readCPU(pid int) (cpuTimes, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return cpuTimes{}, err
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return cpuTimes{}, fmt.Errorf("/proc/%d/stat: no comm", pid)
	}
	// Fields after "comm)": state is field 3; utime 14, stime 15,
	// cutime 16, cstime 17.
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 15 {
		return cpuTimes{}, fmt.Errorf("/proc/%d/stat: short", pid)
	}
	n := func(k int) int64 { v, _ := strconv.ParseInt(f[k-3], 10, 64); return v }
	return cpuTimes{self: n(14) + n(15), children: n(16) + n(17)}, nil
}

// rssKiB is a process's resident set, from /proc/<pid>/status.
func rssKiB(pid int) (int64, error) { return procKiB(pid, "status", "VmRSS:") }

// pssKiB is a process's proportional set size, from
// /proc/<pid>/smaps_rollup: its resident pages with each shared page
// divided among its sharers, so summing many processes (a hundred cat
// copiers) does not count libc a hundred times.
func pssKiB(pid int) (int64, error) { return procKiB(pid, "smaps_rollup", "Pss:") }

// procKiB reads the kB figure on the line of /proc/<pid>/<file> that starts
// with field.
func procKiB(pid int, file, field string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/%s", pid, file))
	if err != nil {
		return 0, err
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			f := strings.Fields(v)
			if len(f) > 0 {
				return strconv.ParseInt(f[0], 10, 64)
			}
		}
	}
	return 0, fmt.Errorf("/proc/%d/%s: no %s", pid, file, field)
}
