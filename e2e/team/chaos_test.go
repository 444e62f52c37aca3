//go:build linux

package team

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

// The scenarios run one after another (each stops and starts a server, or
// freezes a station, and the machine's two cores are shared): each on its
// own cluster, so a restart here never reaches another package's tests.

// A partition of one station for twice the lease, first as a black hole,
// then as a refusal: the cut-off station stops its agents before its
// leases can run out, the others take the queue on, and nothing is lost.
func TestChaosPartition(t *testing.T) {
	c := newCluster(t)
	f := newFleet(t, c, map[string]int{"web": 2, "api": 2}, map[string]int{"A": 2, "B": 2, "C": 2}, "1.5")
	f.add("web", 24)
	f.add("api", 24)
	time.Sleep(3 * time.Second)
	for _, mode := range []string{"hole", "refuse"} {
		f.mon.fault()
		f.relays["A"].Set(mode)
		time.Sleep(lease)
		// status degrades and says so, instead of failing.
		out, errOut, code, err := rig.CLI(rig.Bin(), f.env("A"), "status")
		if err != nil || code != 0 || !strings.Contains(out, "board unreachable since ") || !strings.Contains(out, "retrying") {
			t.Errorf("status at A cut off (%s): exit %d %v\n%s%s", mode, code, err, out, errOut)
		}
		time.Sleep(lease)
		f.relays["A"].Set("pass")
		f.mon.heal()
		time.Sleep(3 * time.Second)
	}
	f.finish(f.settle(3 * time.Minute))
}

// boardStop is how long the server stays stopped mid-run: the issue's
// 30 s, fifteen leases, so every station fences all it runs and waits.
const boardStop = 30 * time.Second

// The server restarted three times, then stopped for 30 s mid-run.
func TestChaosServerRestarts(t *testing.T) {
	c := newCluster(t)
	f := newFleet(t, c, map[string]int{"web": 2, "api": 2}, map[string]int{"A": 2, "B": 2, "C": 2}, "1.5")
	f.add("web", 20)
	f.add("api", 20)
	time.Sleep(2 * time.Second)
	for range 3 {
		f.mon.fault()
		c.Restart()
		f.mon.heal()
		time.Sleep(2 * time.Second)
	}
	f.mon.fault()
	c.Stop()
	time.Sleep(boardStop)
	c.Start()
	f.mon.heal()
	f.finish(f.settle(3 * time.Minute))
}

// A station frozen (with its agents) for longer than lease + grace: the
// others reap its leases and go on; when it wakes it fences its agents
// before they run beside the new owners, and its late writes are refused.
func TestChaosFrozenStation(t *testing.T) {
	c := newCluster(t)
	f := newFleet(t, c, map[string]int{"web": 2}, map[string]int{"A": 2, "B": 2}, "2")
	f.add("web", 16)
	time.Sleep(3 * time.Second)
	f.mon.fault()
	pids := f.freeze("A")
	time.Sleep(lease + grace + 2*time.Second)
	f.thaw(pids)
	f.mon.heal()
	f.finish(f.settle(3 * time.Minute))
}

// A station process stopped (SIGSTOP on it alone) while its agents run
// on, for longer than lease + grace: it cannot end them itself, so its
// fence guard (a process of its own) does, before the others are let the
// tasks; when the station resumes it finds its sessions ended, and no
// task ran twice.
func TestChaosStoppedStation(t *testing.T) {
	c := newCluster(t)
	f := newFleet(t, c, map[string]int{"web": 4}, map[string]int{"A": 2, "B": 2}, "4")
	f.add("web", 12)
	f.mon.waitRunning("A", 30*time.Second)
	f.mon.fault()
	pid := f.stations["A"].PID()
	_ = syscall.Kill(pid, syscall.SIGSTOP)
	time.Sleep(lease + grace + 2*time.Second)
	// The reaper blocked A's tasks ("station A lost"); a person requeues
	// them at B, which runs them while A is still stopped.
	blocked := f.tasksIn("blocked")
	if len(blocked) == 0 {
		t.Error("no task of the stopped station was reaped")
	}
	for _, id := range blocked {
		if out, errOut, code, err := rig.CLI(rig.Bin(), f.env("B"), "task", "requeue", id); err != nil || code != 0 {
			t.Errorf("task requeue %s at B: exit %d %v: %s%s", id, code, err, out, errOut)
		}
	}
	time.Sleep(3 * time.Second)
	_ = syscall.Kill(pid, syscall.SIGCONT)
	f.mon.heal()
	f.finish(f.settle(3 * time.Minute))
	if log, _ := os.ReadFile(filepath.Join(f.homes["A"], "logs", "station.log")); !strings.Contains(string(log), "fence guard: the station stopped proving its leases") {
		t.Errorf("station A's fence guard did not say it ended A's sessions:\n%s", tail(string(log), 40))
	}
}

// A station killed with SIGKILL, restarted after its leases were reaped:
// its agents died with it, its tasks were blocked naming it, and the
// restarted station takes its name back and works on.
func TestChaosKillAndLateRestart(t *testing.T) {
	c := newCluster(t)
	f := newFleet(t, c, map[string]int{"web": 2}, map[string]int{"A": 2, "B": 1}, "1.5")
	f.add("web", 16)
	time.Sleep(3 * time.Second)
	f.mon.fault()
	f.stations["A"].Kill9()
	time.Sleep(lease + grace + 2*time.Second)
	f.start("A")
	f.mon.heal()
	f.finish(f.settle(3 * time.Minute))
}

// The same with the tmux backend, whose agents outlive a killed station.
// Restarted at once, the station adopts them: its fence guard, which saw
// it die, leaves them to it. Killed again and restarted late, the guard
// ends them when the killed station's proof runs out, before the others
// could be let the tasks; the restarted station finds their windows dead
// or their tasks taken, and removes the windows.
func TestChaosKillAndLateRestartTmux(t *testing.T) {
	c := newCluster(t)
	f := newFleetOn(t, c, "tmux", map[string]int{"web": 3}, map[string]int{"A": 2, "B": 1}, "4")
	f.add("web", 12)
	f.mon.waitRunning("A", 30*time.Second)
	logPath := filepath.Join(f.homes["A"], "logs", "station.log")
	// An agent runs before its station records the session ("session
	// started" is logged once it has): a kill in between leaves a window
	// nothing names, which a restart rightly ends rather than adopts.
	rig.Eventually(t, 30*time.Second, func() bool {
		log, _ := os.ReadFile(logPath)
		return strings.Contains(string(log), `msg="session started"`)
	}, "station A to record a session")
	f.mon.fault()
	f.stations["A"].Kill9()
	before, _ := os.ReadFile(logPath)
	f.start("A")
	f.mon.heal()
	time.Sleep(lease) // the killed station's proof has run out
	early, _ := os.ReadFile(logPath)
	if !strings.Contains(string(early), "adopted a session that outlived the station") {
		t.Errorf("station A restarted at once adopted nothing:\n%s", tail(string(early), 40))
	}
	if strings.Contains(string(early), "fence guard: the station died") {
		t.Errorf("the fence guard ended sessions a restarted station took over:\n%s", tail(string(early), 40))
	}
	f.mon.waitRunning("A", 30*time.Second)
	// The second kill means to leave the restarted station's guard with
	// sessions to end: it must have been given a proof (a renewed lease)
	// for them first, which a loaded machine can delay past the restart.
	const armed = "fence guard: the station proved its leases; guarding its sessions"
	rig.Eventually(t, 30*time.Second, func() bool {
		log, _ := os.ReadFile(logPath)
		return strings.Count(string(log), armed) > strings.Count(string(before), armed)
	}, "the restarted station A's fence guard to hold a proof for its sessions")
	f.mon.fault()
	f.stations["A"].Kill9()
	time.Sleep(lease + grace + 2*time.Second)
	f.start("A")
	f.mon.heal()
	f.finish(f.settle(3 * time.Minute))
	if log, _ := os.ReadFile(logPath); !strings.Contains(string(log), "fence guard: the station died") {
		t.Errorf("station A's fence guard did not end the agents of the killed station:\n%s", tail(string(log), 40))
	}
}

// Stations configured with different concurrency obey the board's cap;
// 300 tasks across three stations and three projects, run once each. The
// agents work 0.1 s, so the suite stays within minutes on two cores: each
// agent overlaps the others less than a real one would, and a breach of a
// cap has less time to show; the station's own work per task (claim,
// worktree, spawn, report, end, release) is what is loaded.
func TestChaosCapsAndLoad(t *testing.T) {
	c := newCluster(t)
	f := newFleet(t, c, map[string]int{"web": 2, "api": 3, "docs": 1}, map[string]int{"A": 5, "B": 1, "C": 2}, "0.1")
	f.add("web", 110)
	f.add("api", 150)
	f.add("docs", 40)
	counts := f.settle(4 * time.Minute)
	if counts["done"] != 300 {
		t.Errorf("tasks: %v, want all 300 done with no fault", counts)
	}
	f.finish(counts)
}
