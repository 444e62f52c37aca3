package rig

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ChildrenNamed are the pids of parent's child processes whose command line
// has word in it (Linux's /proc): the tray's dashboard process, for the
// tray suite and the tray bench.
func ChildrenNamed(parent int, word string) []int {
	var out []int
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(stat)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
		if len(f) < 2 || f[1] != strconv.Itoa(parent) {
			continue
		}
		if cmdline, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline")); strings.Contains(string(cmdline), word) {
			out = append(out, pid)
		}
	}
	return out
}
