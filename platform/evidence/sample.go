package evidence

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/buildstation/buildstation/platform/proctree"
)

// procKey names one process across samples: a pid plus its start time, so
// a pid the kernel reused for another process is not mistaken for it.
type procKey struct {
	pid   int
	start uint64
}

func keyOf(p proctree.Proc) procKey { return procKey{pid: p.PID, start: p.StartTime} }

// procTicks is one live descendant's CPU at a sample, in clock ticks.
type procTicks struct {
	own  uint64 // utime+stime: the process's own work
	all  uint64 // own plus its reaped children's
	comm string
}

// sample is the CPU of one agent's descendants at one moment.
type sample struct {
	at    time.Time
	agent procKey
	// total is every live descendant's utime+stime+cutime+cstime plus the
	// agent's own cutime+cstime: what its descendants, living or exited,
	// have used. The agent's utime+stime stay out: its spinner is not work.
	total uint64
	procs map[procKey]procTicks
}

// takeSample sums the descendants of pid in snap. ok is false when pid is
// not in the table (the agent exited) or has already exited (a zombie).
func takeSample(snap *snapshot, pid int) (sample, bool) {
	agent, found := snap.procs[pid]
	if pid <= 0 || !found || agent.Zombie() {
		return sample{}, false
	}
	s := sample{
		at:    snap.at,
		agent: keyOf(agent),
		total: agent.CUTime + agent.CSTime,
		procs: make(map[procKey]procTicks),
	}
	// Walk the shared children map; the seen set guards against the loops a
	// recycled parent pid can make on Windows.
	seen := map[int]bool{pid: true}
	queue := []int{pid}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, k := range snap.kids[cur] {
			if seen[k] {
				continue
			}
			seen[k] = true
			queue = append(queue, k)
			p := snap.procs[k]
			own := p.UTime + p.STime
			t := procTicks{own: own, all: own + p.CUTime + p.CSTime, comm: p.Comm}
			s.procs[keyOf(p)] = t
			s.total += t.all
		}
	}
	return s, true
}

// delta is the CPU used between two samples of the same agent.
type delta struct {
	total  uint64            // ticks used by the descendants in the window
	byComm map[string]uint64 // own ticks of live descendants, by name
	exited uint64            // ticks of children that exited in the window
}

// diff measures the CPU used from base to now. live is now's process table.
//
// Totals are conserved as processes exit: a reaped child's times move into
// its parent's cutime+cstime, so now.total-base.total counts only the new
// work. A descendant that left the tree alive (orphaned, reparented to
// init) takes its times with it; it is dropped from the baseline too, so
// its departure does not hide the rest of the tree's work.
func diff(base, now sample, live map[int]proctree.Proc) delta {
	baseTotal := base.total
	for k, t := range base.procs {
		if _, still := now.procs[k]; still {
			continue
		}
		if p, alive := live[k.pid]; alive && keyOf(p) == k && !p.Zombie() {
			baseTotal -= min(t.all, baseTotal)
		}
	}
	d := delta{byComm: make(map[string]uint64)}
	if now.total > baseTotal {
		d.total = now.total - baseTotal
	}
	var liveOwn uint64
	for k, t := range now.procs {
		used := t.own
		if b, ok := base.procs[k]; ok {
			used = t.own - min(b.own, t.own)
		}
		if used > 0 {
			d.byComm[t.comm] += used
			liveOwn += used
		}
	}
	if d.total > liveOwn {
		d.exited = d.total - liveOwn
	}
	return d
}

// exitedLabel names the CPU of children that exited in the window.
const exitedLabel = "exited children"

// detail says it for people: "14.2s CPU in make, cc1", naming the three
// busiest (by name, so eight cc1 processes are one cc1).
func (d delta) detail() string {
	type named struct {
		name  string
		ticks uint64
	}
	var all []named
	for name, ticks := range d.byComm {
		all = append(all, named{name, ticks})
	}
	if d.exited > 0 {
		all = append(all, named{exitedLabel, d.exited})
	}
	slices.SortFunc(all, func(a, b named) int {
		if c := cmp.Compare(b.ticks, a.ticks); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	names := make([]string, 0, 3)
	for _, n := range all[:min(3, len(all))] {
		names = append(names, n.name)
	}
	secs := float64(d.total) / ticksPerSecond
	if len(names) == 0 {
		return fmt.Sprintf("%.1fs CPU in descendants", secs)
	}
	return fmt.Sprintf("%.1fs CPU in %s", secs, strings.Join(names, ", "))
}
