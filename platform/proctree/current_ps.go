//go:build unix && !linux

package proctree

import (
	"fmt"

	"github.com/buildstation/buildstation/platform/childproc"
)

// Current reads the live process table from ps, since macOS and the BSDs
// have no /proc. It gives pids, parents, groups, state and names; CPU
// ticks, session and start time stay zero.
func Current() (map[int]Proc, error) {
	out, err := childproc.Command("ps", "-axo", "pid=,ppid=,pgid=,stat=,comm=").Output()
	if err != nil {
		return nil, fmt.Errorf("read process table: ps: %w", err)
	}
	return parsePS(out), nil
}
