package evidence

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// BenchmarkCPUProbe50Sessions measures one watchdog round: 50 sessions
// probed in the same instant against a synthetic /proc of ~2,000 processes
// (50 agents with 38 descendants each, plus unrelated ones). One op is the
// whole round: one table read and 50 tree walks.
func BenchmarkCPUProbe50Sessions(b *testing.B) {
	c, fs, clock := newTestCPU(b, CPUOptions{})
	fs.set(proc{pid: 1, comm: "init", born: 1})
	targets := make([]supervisor.ProbeTarget, 50)
	next := 2
	for i := range targets {
		agent := next
		next++
		fs.set(proc{pid: agent, ppid: 1, comm: "claude", born: 1000})
		targets[i] = supervisor.ProbeTarget{SessionID: fmt.Sprint("s", i), PID: agent}
		mk := next
		next++
		fs.set(proc{pid: mk, ppid: agent, comm: "make", ut: 3 * sec, born: 1100})
		for range 37 {
			fs.set(proc{pid: next, ppid: mk, comm: "cc1", ut: 2 * sec, born: 1200})
			next++
		}
	}
	for next < 2000 {
		fs.set(proc{pid: next, ppid: 1, comm: "other", born: 1300})
		next++
	}
	ctx := context.Background()
	for _, tg := range targets {
		if err := c.Observe(tg); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		clock.Advance(time.Minute) // a new round: the cached table is stale
		since := clock.Now().Add(-5 * time.Minute)
		for _, tg := range targets {
			if _, _, err := c.Probe(ctx, tg, since); err != nil {
				b.Fatal(err)
			}
		}
	}
}
