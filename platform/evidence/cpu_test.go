package evidence

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

var testBoot = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

const (
	agentPID = 100
	sec      = ticksPerSecond // ticks in one second of CPU
)

// agentTree is a session: init, the agent, make under it, cc1 under make.
func agentTree() []proc {
	return []proc{
		{pid: 1, ppid: 0, comm: "init", ut: 500 * sec, born: 1},
		{pid: agentPID, ppid: 1, comm: "claude", ut: 20 * sec, born: 1000},
		{pid: 101, ppid: agentPID, comm: "make", ut: 1 * sec, born: 2000},
		{pid: 102, ppid: 101, comm: "cc1", ut: 2 * sec, born: 2100},
	}
}

func newTestCPU(t testing.TB, opts CPUOptions) (*CPU, *fakeProcFS, *fakeClock) {
	fs := newFakeProcFS(t, testBoot)
	clock := &fakeClock{t: testBoot.Add(time.Hour)}
	opts.Root, opts.Now = fs.root, clock.Now
	return NewCPU(opts), fs, clock
}

func TestCPUProbe(t *testing.T) {
	target := supervisor.ProbeTarget{SessionID: "s1", PID: agentPID}
	const window = 5 * time.Minute
	cases := []struct {
		name       string
		before     []proc
		observe    bool // take a sample when the window starts
		work       func(f *fakeProcFS)
		wantAlive  bool
		wantDetail string
	}{{
		name:    "busy grandchild crosses the threshold",
		before:  agentTree(),
		observe: true,
		work: func(f *fakeProcFS) {
			f.set(proc{pid: 102, ppid: 101, comm: "cc1", ut: 38 * sec, st: 4 * sec, born: 2100})
		},
		wantAlive:  true,
		wantDetail: "40.0s CPU in cc1",
	}, {
		name:    "busy grandchild and its parent",
		before:  agentTree(),
		observe: true,
		work: func(f *fakeProcFS) {
			f.set(proc{pid: 101, ppid: agentPID, comm: "make", ut: 11 * sec, born: 2000},
				proc{pid: 102, ppid: 101, comm: "cc1", ut: 32 * sec, born: 2100})
		},
		wantAlive:  true,
		wantDetail: "40.0s CPU in cc1, make",
	}, {
		name:    "agent spinning only itself",
		before:  agentTree(),
		observe: true,
		work: func(f *fakeProcFS) {
			f.set(proc{pid: agentPID, ppid: 1, comm: "claude", ut: 300 * sec, st: 20 * sec, born: 1000})
		},
		wantAlive: false,
	}, {
		name:    "child exited, its CPU in the agent's cutime",
		before:  agentTree(),
		observe: true,
		work: func(f *fakeProcFS) {
			// make and cc1 finished: 3s before the window, 40s in it.
			f.remove(101, 102)
			f.set(proc{pid: agentPID, ppid: 1, comm: "claude", ut: 20 * sec, cut: 40 * sec, cst: 3 * sec, born: 1000})
		},
		wantAlive:  true,
		wantDetail: "40.0s CPU in exited children",
	}, {
		name:    "below threshold",
		before:  agentTree(),
		observe: true,
		work: func(f *fakeProcFS) {
			f.set(proc{pid: 102, ppid: 101, comm: "cc1", ut: 29 * sec, born: 2100}) // 27s < 30s
		},
		wantAlive: false,
	}, {
		name: "a child reaped in the window is not counted twice",
		before: append(agentTree(),
			proc{pid: 103, ppid: 101, comm: "ld", ut: 100 * sec, born: 2200}),
		observe: true,
		work: func(f *fakeProcFS) {
			// ld used 100s before the window and 1s in it, then make reaped it.
			f.remove(103)
			f.set(proc{pid: 101, ppid: agentPID, comm: "make", ut: 1 * sec, cut: 101 * sec, born: 2000})
		},
		wantAlive: false,
	}, {
		name: "an orphan leaving the tree does not hide the work",
		before: append(agentTree(),
			proc{pid: 103, ppid: 101, comm: "daemon", ut: 500 * sec, born: 2200}),
		observe: true,
		work: func(f *fakeProcFS) {
			f.set(proc{pid: 103, ppid: 1, comm: "daemon", ut: 500 * sec, born: 2200},
				proc{pid: 102, ppid: 101, comm: "cc1", ut: 42 * sec, born: 2100})
		},
		wantAlive:  true,
		wantDetail: "40.0s CPU in cc1",
	}, {
		name: "first probe counts everything since the agent started",
		// The agent started 10s after boot, an hour before the window
		// opened: 400s of descendant CPU in 1h05m is 10.3%.
		before: agentTree(),
		work: func(f *fakeProcFS) {
			f.set(proc{pid: agentPID, ppid: 1, comm: "claude", ut: 20 * sec, cut: 300 * sec, born: 1000},
				proc{pid: 102, ppid: 101, comm: "cc1", ut: 99 * sec, born: 2100})
		},
		wantAlive:  true,
		wantDetail: "400.0s CPU in exited children, cc1, make",
	}, {
		name:   "first probe below threshold over the agent's life",
		before: agentTree(),
		work: func(f *fakeProcFS) {
			f.set(proc{pid: 102, ppid: 101, comm: "cc1", ut: 200 * sec, born: 2100})
		},
		wantAlive: false,
	}, {
		name:    "agent gone",
		before:  agentTree(),
		observe: true,
		work: func(f *fakeProcFS) {
			f.remove(agentPID)
			f.set(proc{pid: 101, ppid: 1, comm: "make", ut: 1 * sec, born: 2000},
				proc{pid: 102, ppid: 101, comm: "cc1", ut: 200 * sec, born: 2100})
		},
		wantAlive: false,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, fs, clock := newTestCPU(t, CPUOptions{Share: 0.10})
			fs.set(tc.before...)
			since := clock.Now()
			if tc.observe {
				if err := c.Observe(target); err != nil {
					t.Fatal(err)
				}
			}
			tc.work(fs)
			clock.Advance(window)
			life, alive, err := c.Probe(context.Background(), target, since)
			if err != nil {
				t.Fatal(err)
			}
			if alive != tc.wantAlive {
				t.Fatalf("alive = %v (%q), want %v", alive, life.Detail, tc.wantAlive)
			}
			if !alive {
				return
			}
			if life.Detail != tc.wantDetail || life.Layer != "cpu" || !life.At.Equal(clock.Now()) {
				t.Errorf("life = %+v, want detail %q at %v", life, tc.wantDetail, clock.Now())
			}
		})
	}
}

func TestCPUBaselineIsTheSampleAtSince(t *testing.T) {
	c, fs, clock := newTestCPU(t, CPUOptions{})
	target := supervisor.ProbeTarget{SessionID: "s1", PID: agentPID}
	fs.set(agentTree()...)
	if err := c.Observe(target); err != nil {
		t.Fatal(err)
	}
	// 70s of work in the first window, then nothing.
	fs.set(proc{pid: 102, ppid: 101, comm: "cc1", ut: 72 * sec, born: 2100})
	clock.Advance(5 * time.Minute)
	if _, alive, err := c.Probe(context.Background(), target, clock.Now().Add(-5*time.Minute)); err != nil || !alive {
		t.Fatalf("first window: alive=%v err=%v, want alive", alive, err)
	}
	// Measured from the first sample, 70s in 10m would pass (11.7%); the
	// second window starts at the previous check and holds no work.
	since := clock.Now()
	clock.Advance(5 * time.Minute)
	if life, alive, err := c.Probe(context.Background(), target, since); err != nil || alive {
		t.Fatalf("second window: alive=%v (%q) err=%v, want not alive", alive, life.Detail, err)
	}
}

func TestCPUShareFor(t *testing.T) {
	c, fs, clock := newTestCPU(t, CPUOptions{Share: 0.10, ShareFor: func(id string) float64 {
		if id == "strict" {
			return 0.5
		}
		return 0 // the default
	}})
	fs.set(agentTree()...)
	for _, id := range []string{"strict", "default"} {
		if err := c.Observe(supervisor.ProbeTarget{SessionID: id, PID: agentPID}); err != nil {
			t.Fatal(err)
		}
	}
	since := clock.Now()
	fs.set(proc{pid: 102, ppid: 101, comm: "cc1", ut: 62 * sec, born: 2100}) // 60s in 5m: 20%
	clock.Advance(5 * time.Minute)
	for id, want := range map[string]bool{"strict": false, "default": true} {
		_, alive, err := c.Probe(context.Background(), supervisor.ProbeTarget{SessionID: id, PID: agentPID}, since)
		if err != nil || alive != want {
			t.Errorf("%s: alive=%v err=%v, want %v", id, alive, err, want)
		}
	}
}

func TestCPUForgetAndRestartedAgent(t *testing.T) {
	c, fs, clock := newTestCPU(t, CPUOptions{})
	target := supervisor.ProbeTarget{SessionID: "s1", PID: agentPID}
	fs.set(agentTree()...)
	if err := c.Observe(target); err != nil {
		t.Fatal(err)
	}
	c.Forget("s1")
	c.mu.Lock()
	n := len(c.sessions)
	c.mu.Unlock()
	if n != 0 {
		t.Fatalf("%d sessions kept after Forget", n)
	}
	// A new agent reusing the pid: the old samples must not be its
	// baseline, or its fresh tree would look idle (or busy) by accident.
	if err := c.Observe(target); err != nil {
		t.Fatal(err)
	}
	since := clock.Now()
	clock.Advance(time.Minute)
	reborn := uint64((time.Hour + 30*time.Second).Seconds() * sec) // started 30s ago
	fs.remove(101, 102)
	fs.set(proc{pid: agentPID, ppid: 1, comm: "claude", born: reborn},
		proc{pid: 105, ppid: agentPID, comm: "go", ut: 10 * sec, born: reborn + 10})
	life, alive, err := c.Probe(context.Background(), target, since)
	if err != nil || !alive || life.Detail != "10.0s CPU in go" {
		t.Fatalf("restarted agent: alive=%v (%q) err=%v, want alive with 10.0s in go", alive, life.Detail, err)
	}
}

func TestCPUFiftySessionsReadProcOnce(t *testing.T) {
	c, fs, clock := newTestCPU(t, CPUOptions{})
	fs.set(proc{pid: 1, comm: "init", born: 1})
	for i := range 50 {
		pid := 1000 + 10*i
		fs.set(proc{pid: pid, ppid: 1, comm: "claude", born: 1000},
			proc{pid: pid + 1, ppid: pid, comm: "go", ut: 5 * sec, born: 1100})
	}
	since := clock.Now().Add(-time.Minute)
	probeAll := func() {
		var wg sync.WaitGroup
		for i := range 50 {
			wg.Go(func() {
				target := supervisor.ProbeTarget{SessionID: fmt.Sprint("s", i), PID: 1000 + 10*i}
				if _, _, err := c.Probe(context.Background(), target, since); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
	}
	probeAll()
	if n := c.procs.readCount(); n != 1 {
		t.Fatalf("50 probes in one instant read the process table %d times, want 1", n)
	}
	clock.Advance(DefaultSnapshotTTL)
	probeAll()
	if n := c.procs.readCount(); n != 2 {
		t.Fatalf("after the TTL: %d reads, want 2", n)
	}
}

func TestCPUCancelled(t *testing.T) {
	c, fs, _ := newTestCPU(t, CPUOptions{})
	fs.set(agentTree()...)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := c.Probe(ctx, supervisor.ProbeTarget{SessionID: "s1", PID: agentPID}, time.Time{}); err == nil {
		t.Fatal("Probe with a cancelled context: want an error")
	}
}

func TestCPUUnreadableTable(t *testing.T) {
	c := NewCPU(CPUOptions{Root: t.TempDir() + "/missing"})
	_, _, err := c.Probe(context.Background(), supervisor.ProbeTarget{SessionID: "s1", PID: agentPID}, time.Time{})
	if err == nil || !strings.Contains(err.Error(), "s1") {
		t.Fatalf("err = %v, want one naming the session", err)
	}
}
