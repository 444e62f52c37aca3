package proctree

import "slices"

// Proc is one row of the process table at the moment of a snapshot.
//
// Times are in clock ticks (USER_HZ, 100 per second on every Linux the
// station targets) and are only filled where the OS offers them cheaply
// (Linux). Session and StartTime are zero where unknown; StartTime tells a
// process from a later one that reused its pid.
type Proc struct {
	PID, PPID, PGID, Session int
	State                    byte // Linux state letter: 'R', 'S', 'Z' (zombie)…
	UTime, STime             uint64
	CUTime, CSTime           uint64 // of reaped children
	StartTime                uint64 // ticks after boot
	Comm                     string
}

// Zombie reports whether the process has exited and only waits to be
// reaped: it holds no resources and no longer runs, so it counts as dead.
func (p Proc) Zombie() bool { return p.State == 'Z' || p.State == 'X' }

// Children maps each pid to its direct children, sorted, so a tree can be
// walked without rescanning the table.
func Children(procs map[int]Proc) map[int][]int {
	kids := make(map[int][]int)
	for pid, p := range procs {
		if p.PPID != pid {
			kids[p.PPID] = append(kids[p.PPID], pid)
		}
	}
	for _, k := range kids {
		slices.Sort(k)
	}
	return kids
}

// DescendantsOf returns every process below pid in procs (not pid itself),
// sorted. It guards against cycles: on Windows a recycled parent pid can make
// the parent links loop.
func DescendantsOf(procs map[int]Proc, pid int) []int {
	kids := Children(procs)
	seen := map[int]bool{pid: true}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, k := range kids[cur] {
			if seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, k)
			queue = append(queue, k)
		}
	}
	slices.Sort(out)
	return out
}

// Family returns what ending leader's tree must reach (not leader itself),
// sorted: its descendants, plus any process still in its process group or
// session. The second part catches orphans: once a parent dies its children
// are reparented to init and the parent links no longer lead to them, but
// their group and session stay.
func Family(procs map[int]Proc, leader int) []int {
	set := make(map[int]bool)
	for _, pid := range DescendantsOf(procs, leader) {
		set[pid] = true
	}
	for pid, p := range procs {
		if pid != leader && (p.PGID == leader || p.Session == leader) {
			set[pid] = true
		}
	}
	out := make([]int, 0, len(set))
	for pid := range set {
		out = append(out, pid)
	}
	slices.Sort(out)
	return out
}

// Descendants returns the pids below pid in the live process table, or nil
// when the table cannot be read.
func Descendants(pid int) []int {
	procs, err := Current()
	if err != nil {
		return nil
	}
	return DescendantsOf(procs, pid)
}
