//go:build unix

package pty

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/platform/internal/proctest"
	"github.com/buildstation/buildstation/platform/proctree"
	"github.com/buildstation/buildstation/supervisor"
)

func TestStopKillsGrandchildren(t *testing.T) {
	if _, code, err := proctest.StopKillsGrandchildren(t, New()); code != -1 || !isSignal(err, syscall.SIGTERM) {
		t.Errorf("Wait = %d, %v; want -1 and SIGTERM", code, err)
	}
}

func TestStopKillsSetsidGrandchild(t *testing.T) {
	if !isOnPath("setsid") {
		t.Skip("setsid (util-linux) not installed")
	}
	p := proctest.Spawn(t, New(), supervisor.SpawnSpec{Argv: []string{"sh", "-c", "setsid sleep 300 & sleep 300 & wait"}})
	var escaped int
	kids := proctest.WaitTree(t, p.Pid(), func(procs map[int]proctree.Proc, kids []int) bool {
		for _, pid := range kids {
			if pr := procs[pid]; pr.Comm == "sleep" && pr.Session != p.Pid() && pr.PGID != p.Pid() {
				escaped = pid
			}
		}
		return escaped != 0 && proctest.CountComm(procs, kids, "sleep") == 2
	})
	if err := p.Stop(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	proctest.AssertAllDead(t, append(kids, p.Pid())...)
	if proctest.Running(escaped) {
		t.Errorf("the setsid grandchild %d survived Stop", escaped)
	}
}

func TestStopKillsAfterGraceWhenTermIgnored(t *testing.T) {
	if code, err := proctest.StopKillsAfterGrace(t, New()); code != -1 || !isSignal(err, syscall.SIGKILL) {
		t.Errorf("Wait = %d, %v; want -1 and SIGKILL", code, err)
	}
}

func TestStopIdempotent(t *testing.T) {
	p := proctest.Spawn(t, New(), supervisor.SpawnSpec{Argv: []string{"sleep", "300"}})
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() { errs[i] = p.Stop(time.Second) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("Stop #%d: %v", i, err)
		}
	}
	start := time.Now()
	if err := p.Stop(time.Minute); err != nil {
		t.Errorf("Stop again: %v", err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("a second Stop took %v; want it at once", took)
	}
	proctest.AssertAllDead(t, p.Pid())
}

func TestStopAfterExit(t *testing.T) {
	p := proctest.Spawn(t, New(), supervisor.SpawnSpec{Argv: []string{"sh", "-c", "exit 0"}})
	if _, err := proctest.WaitCode(t, p); err != nil {
		t.Fatal(err)
	}
	if err := p.Stop(time.Minute); err != nil {
		t.Errorf("Stop after exit: %v", err)
	}
}

func isSignal(err error, sig syscall.Signal) bool {
	var se *SignalError
	return errors.As(err, &se) && se.Signal == sig
}

func isOnPath(name string) bool {
	_, err := lookPath(name, envValue(nil, "PATH", false))
	return err == nil
}

// A grandchild that called setsid and whose parent already died is out of
// every tree walk from the agent (its parent is init) and out of the agent's
// group and session; the session's environment marker still finds it.
func TestStopKillsOrphanedSetsidGrandchild(t *testing.T) {
	if !isOnPath("setsid") || runtime.GOOS != "linux" {
		t.Skip("needs setsid and /proc environ (Linux)")
	}
	marker := fmt.Sprintf("BUILDSTATION_SESSION_ID=orphan-test-%d", time.Now().UnixNano())
	p := proctest.Spawn(t, New(), supervisor.SpawnSpec{
		Argv:   []string{"sh", "-c", "(setsid sleep 301 &); echo forked; sleep 300"},
		Env:    append(os.Environ(), marker),
		Marker: marker,
	})
	out := proctest.Collect(p)
	out.WaitFor(t, "forked")
	var orphan int
	testwait.Eventually(t, 5*time.Second, func() bool {
		for _, pid := range proctree.Marked("", marker) {
			procs, _ := proctree.Current()
			if pr := procs[pid]; pr.Comm == "sleep" && pr.PPID == 1 || pr.Comm == "sleep" && pr.Session != p.Pid() {
				orphan = pid
			}
		}
		return orphan != 0
	}, "the orphaned setsid sleep")
	if err := p.Stop(time.Second); err != nil {
		t.Fatal(err)
	}
	if proctest.Running(orphan) {
		syscall.Kill(orphan, syscall.SIGKILL)
		t.Fatalf("the orphaned setsid grandchild %d survived Stop", orphan)
	}
}
