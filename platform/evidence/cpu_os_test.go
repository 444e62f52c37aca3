package evidence

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/platform/proctree"
	"github.com/buildstation/buildstation/supervisor"
)

// The CPU layer's arithmetic on Windows and macOS, run here with tables and
// times in those OSes' own shapes and units: a Toolhelp32 or ps table (no
// times, no start), GetProcessTimes' 100 ns units and the Job Object's
// total on Windows, proc_pid_rusage's Mach time units (125/3 ns each on
// Apple silicon) on macOS. Only the OS calls differ from Linux; they are
// compiled by `make cross` and run by the Windows and macOS workflows.

// osMachine is a fake OS: its process table and each process's times.
type osMachine struct {
	table map[int]proctree.Proc
	times map[int]procTimes
	job   time.Duration // the Job Object's total (Windows)
}

func (m *osMachine) read() (map[int]proctree.Proc, error) {
	out := make(map[int]proctree.Proc, len(m.table))
	for k, v := range m.table {
		out[k] = v
	}
	return out, nil
}

func (m *osMachine) timesOf(p proctree.Proc) (procTimes, bool) {
	t, ok := m.times[p.PID]
	return t, ok
}

// osCPU is the CPU layer reading m instead of this machine.
func osCPU(m *osMachine, clock *fakeClock) *CPU {
	c := NewCPU(CPUOptions{Now: clock.Now})
	c.procs.read = m.read
	c.times = m.timesOf
	return c
}

// winFiletime is a GetProcessTimes figure: a duration in 100 ns units.
func winFiletime(d time.Duration) int64 { return int64(d / 100) }

// winProc is a process as GetProcessTimes reports it.
func winProc(own time.Duration, created uint64) procTimes {
	return windowsTimes(winFiletime(own)*2/5, winFiletime(own)*3/5, created) // kernel 40%, user 60%
}

// A silent native build on Windows: claude.exe starts cmd.exe, which runs
// one cl.exe after another; each exits in seconds, so no sample ever sees
// most of them, and Windows keeps no reaped-children time. The job counts
// them all. The agent's own spinner (claude.exe's CPU) never counts.
func TestCPUWindowsJobAccounting(t *testing.T) {
	const agent, shell, cl = 4120, 5304, 6012
	const created = 133802784000000000 // a FILETIME: 2025-01-01 in 100 ns since 1601
	m := &osMachine{
		table: map[int]proctree.Proc{
			4:     {PID: 4, Comm: "System"},
			agent: {PID: agent, PPID: 3880, Comm: "claude.exe"},
			shell: {PID: shell, PPID: agent, Comm: "cmd.exe"},
		},
		times: map[int]procTimes{
			agent: winProc(12*time.Second, created),
			shell: winProc(80*time.Millisecond, created+600_000_000),
		},
		job: 12*time.Second + 80*time.Millisecond + 3*time.Second, // + cl.exe runs that already exited
	}
	clock := &fakeClock{t: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}
	c := osCPU(m, clock)
	target := supervisor.ProbeTarget{SessionID: "w1", PID: agent, TreeCPU: func() time.Duration { return m.job }}
	if err := c.Observe(target); err != nil {
		t.Fatal(err)
	}
	start := clock.Now()

	// Five minutes: the agent spins 40 s of its own (not work); 45 s of
	// cl.exe ran and exited; one cl.exe is running now with 1.5 s.
	clock.Advance(5 * time.Minute)
	m.times[agent] = winProc(52*time.Second, created)
	m.table[cl] = proctree.Proc{PID: cl, PPID: shell, Comm: "cl.exe"}
	m.times[cl] = winProc(1500*time.Millisecond, created+3_000_000_000)
	m.job += 40*time.Second + 45*time.Second + 1500*time.Millisecond
	life, ok, err := c.Probe(context.Background(), target, start)
	if err != nil || !ok {
		t.Fatalf("a silent build with 46.5 s of CPU in 5 min shows no life (err %v)", err)
	}
	if life.Detail != "46.5s CPU in exited children, cl.exe" {
		t.Errorf("detail %q", life.Detail)
	}

	// The next five minutes only the agent spins (60 s of its own): quiet.
	start = clock.Now()
	clock.Advance(5 * time.Minute)
	m.times[agent] = winProc(112*time.Second, created)
	m.job += 60 * time.Second
	delete(m.table, cl)
	if _, ok, _ := c.Probe(context.Background(), target, start); ok {
		t.Fatal("the agent's own CPU counted as its descendants' work")
	}

	// cmd.exe exits, leaving an orphan whose parent pid names nobody:
	// Windows never reparents, so the walk from the agent misses it, but
	// the job still counts its work.
	start = clock.Now()
	clock.Advance(5 * time.Minute)
	delete(m.table, shell)
	m.table[7000] = proctree.Proc{PID: 7000, PPID: shell, Comm: "link.exe"}
	m.times[7000] = winProc(35*time.Second, created+9_000_000_000)
	m.job += 35 * time.Second
	if life, ok, _ := c.Probe(context.Background(), target, start); !ok || !strings.HasPrefix(life.Detail, "35.0s CPU") {
		t.Fatalf("an orphaned descendant's work was lost: %v %q", ok, life.Detail)
	}
}

// machUnits is a duration in Mach absolute time units on Apple silicon
// (24 MHz: one unit is 125/3 ns).
func machUnits(d time.Duration) uint64 { return uint64(d) * 3 / 125 }

// darwinProc is a process as proc_pid_rusage reports it on Apple silicon.
func darwinProc(own, reaped time.Duration, start uint64) procTimes {
	num, den := timebaseFor(24_000_000)
	return darwinTimes(machUnits(own)*7/10, machUnits(own)*3/10, machUnits(reaped)/2, machUnits(reaped)/2, start, num, den)
}

// A silent build on macOS: claude runs make, make runs cc after cc and
// reaps them, so their time moves into make's ri_child_* times. As on
// Linux, that counts; the agent's own time does not.
func TestCPUDarwinRusage(t *testing.T) {
	const agent, mk, cc = 81234, 81301, 81377
	m := &osMachine{
		table: map[int]proctree.Proc{
			1:     {PID: 1, Comm: "launchd", State: 'S'},
			agent: {PID: agent, PPID: 80011, Comm: "claude", State: 'S'},
			mk:    {PID: mk, PPID: agent, Comm: "make", State: 'S'},
		},
		times: map[int]procTimes{
			agent: darwinProc(9*time.Second, 0, 1_000_000),
			mk:    darwinProc(200*time.Millisecond, 2*time.Second, 2_000_000),
		},
	}
	clock := &fakeClock{t: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}
	c := osCPU(m, clock)
	target := supervisor.ProbeTarget{SessionID: "m1", PID: agent}
	if err := c.Observe(target); err != nil {
		t.Fatal(err)
	}
	start := clock.Now()

	// 5 min: 30 s of cc reaped by make, a cc running with 4 s, and the
	// agent's own 50 s of spinner.
	clock.Advance(5 * time.Minute)
	m.times[agent] = darwinProc(59*time.Second, 0, 1_000_000)
	m.times[mk] = darwinProc(300*time.Millisecond, 32*time.Second, 2_000_000)
	m.table[cc] = proctree.Proc{PID: cc, PPID: mk, Comm: "cc", State: 'R'}
	m.times[cc] = darwinProc(4*time.Second, 0, 3_000_000)
	life, ok, err := c.Probe(context.Background(), target, start)
	if err != nil || !ok {
		t.Fatalf("a silent build with 34.1 s of CPU in 5 min shows no life (err %v)", err)
	}
	if life.Detail != "34.1s CPU in exited children, cc, make" {
		t.Errorf("detail %q", life.Detail)
	}

	// Only the agent spins: quiet, whatever its own time.
	start = clock.Now()
	clock.Advance(5 * time.Minute)
	m.times[agent] = darwinProc(300*time.Second, 0, 1_000_000)
	delete(m.table, cc)
	m.times[mk] = darwinProc(300*time.Millisecond, 36*time.Second, 2_000_000) // the running cc's 4 s, reaped
	if _, ok, _ := c.Probe(context.Background(), target, start); ok {
		t.Fatal("the agent's own CPU (or a reaped child's old time) counted as new work")
	}

	// make's child reaped by the agent itself (make exited): the agent's
	// ri_child_* times hold it, and it counts.
	start = clock.Now()
	clock.Advance(5 * time.Minute)
	delete(m.table, mk)
	m.times[agent] = darwinProc(301*time.Second, 36*time.Second+300*time.Millisecond+40*time.Second, 1_000_000)
	if life, ok, _ := c.Probe(context.Background(), target, start); !ok || life.Detail != "40.0s CPU in exited children" {
		t.Fatalf("work reaped by the agent: %v %q", ok, life.Detail)
	}
}

func TestDarwinTimebase(t *testing.T) {
	for hz, want := range map[uint64][2]uint64{24_000_000: {125, 3}, 1_000_000_000: {1, 1}, 0: {1, 1}} {
		if n, d := timebaseFor(hz); n != want[0] || d != want[1] {
			t.Errorf("timebaseFor(%d) = %d/%d, want %d/%d", hz, n, d, want[0], want[1])
		}
	}
	// 24 000 000 Mach units on Apple silicon are one second.
	if got := darwinTimes(24_000_000, 0, 0, 24_000_000, 0, 125, 3); got.own != time.Second || got.reaped != time.Second {
		t.Errorf("darwinTimes = %+v", got)
	}
	if got := windowsTimes(10_000_000, 5_000_000, 7); got.own != 1500*time.Millisecond || got.reaped != 0 || got.start != 7 {
		t.Errorf("windowsTimes = %+v", got)
	}
}
