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

// procCPU is one live descendant's CPU at a sample.
type procCPU struct {
	own  time.Duration // its own work
	all  time.Duration // own plus its reaped children's
	comm string
}

// procTimes is one process's CPU as its OS reports it: its own time, and
// the time of its children it has reaped (Linux and macOS keep that;
// Windows does not, and its Job Object counts them instead). start tells
// the process from a later one that reused its pid (0 where unknown).
type procTimes struct {
	own, reaped time.Duration
	start       uint64
}

// timesFunc reads one process's times; ok is false when the OS will not
// say (it exited meanwhile, or belongs to another user).
type timesFunc func(p proctree.Proc) (procTimes, bool)

// linuxTimes reads the times /proc/<pid>/stat gave proctree, in clock
// ticks. It is the Linux timesFunc, and the one for a synthetic table.
func linuxTimes(p proctree.Proc) (procTimes, bool) {
	tick := time.Second / ticksPerSecond
	return procTimes{
		own:    time.Duration(p.UTime+p.STime) * tick,
		reaped: time.Duration(p.CUTime+p.CSTime) * tick,
		start:  p.StartTime,
	}, true
}

// sample is the CPU of one agent's descendants at one moment.
type sample struct {
	at    time.Time
	agent procKey
	// total is what the agent's descendants, living or exited, have used.
	// The agent's own time stays out: its spinner is not work. Where the
	// process table says it (Linux, macOS) it is every live descendant's
	// own+reaped time plus the agent's reaped children's; where the tree
	// accounts for itself (a Windows Job Object) it is the tree's total
	// less the agent's own, and tree is set.
	total time.Duration
	tree  bool
	procs map[procKey]procCPU
}

// takeSample sums the descendants of pid in snap, reading each one's times
// with times. tree, when not nil, is the whole tree's CPU as the tree
// accounts it itself, exited processes included (a Windows Job Object).
// ok is false when pid is not in the table (the agent exited), has already
// exited (a zombie), or its times cannot be read.
func takeSample(snap *snapshot, pid int, times timesFunc, tree func() time.Duration) (sample, bool) {
	agent, found := snap.procs[pid]
	if pid <= 0 || !found || agent.Zombie() {
		return sample{}, false
	}
	at, ok := times(agent)
	if !ok {
		return sample{}, false
	}
	s := sample{
		at:    snap.at,
		agent: procKey{pid: pid, start: at.start},
		total: at.reaped,
		procs: make(map[procKey]procCPU),
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
			pt, ok := times(p)
			if !ok {
				continue
			}
			c := procCPU{own: pt.own, all: pt.own + pt.reaped, comm: p.Comm}
			s.procs[procKey{pid: k, start: pt.start}] = c
			s.total += c.all
		}
	}
	if tree != nil {
		// The job holds every process the agent ever started, the exited
		// and those whose parent died (Windows never reparents, so the
		// walk above misses them): its total less the agent's own is the
		// descendants' work. The walk above still names the busy ones.
		s.total, s.tree = max(0, tree()-at.own), true
	}
	return s, true
}

// delta is the CPU used between two samples of the same agent.
type delta struct {
	total  time.Duration            // used by the descendants in the window
	byComm map[string]time.Duration // own time of live descendants, by name
	exited time.Duration            // time of children that exited in the window
}

// diff measures the CPU used from base to now. live is now's process table.
//
// Totals are conserved as processes exit: a reaped child's times move into
// its parent's reaped counters (or stay in the job's total), so
// now.total-base.total counts only the new work. On Linux and macOS a
// descendant that left the tree alive (orphaned, reparented to init or
// launchd) takes its times with it; it is dropped from the baseline too, so
// its departure does not hide the rest of the tree's work. A job keeps
// counting such a process, so a tree-accounted sample needs no such care.
func diff(base, now sample, live map[int]proctree.Proc) delta {
	baseTotal := base.total
	if !now.tree {
		for k, t := range base.procs {
			if _, still := now.procs[k]; still {
				continue
			}
			// Where the table gives no start time (macOS, Windows) the pid
			// alone says the process still lives.
			if p, alive := live[k.pid]; alive && (p.StartTime == 0 || keyOf(p) == k) && !p.Zombie() {
				baseTotal -= min(t.all, baseTotal)
			}
		}
	}
	d := delta{byComm: make(map[string]time.Duration)}
	if now.total > baseTotal {
		d.total = now.total - baseTotal
	}
	var liveOwn time.Duration
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
		ticks time.Duration
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
	secs := d.total.Seconds()
	if len(names) == 0 {
		return fmt.Sprintf("%.1fs CPU in descendants", secs)
	}
	return fmt.Sprintf("%.1fs CPU in %s", secs, strings.Join(names, ", "))
}
