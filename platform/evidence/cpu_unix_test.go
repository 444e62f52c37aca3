//go:build linux || darwin

package evidence

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/supervisor"
)

// startTree starts `sh -c script` in its own process group and kills the
// whole group when the test ends.
func startTree(t *testing.T, script string) int {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	t.Cleanup(func() {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	return pid
}

// A silent build as the CPU layer meets it on Linux and macOS: the agent
// (a shell that only waits) runs a builder that runs one short compiler
// after another and reaps each; by the probe most of the work sits in the
// builder's reaped-children times (cutime on Linux, ri_child_* on macOS).
// It counts; the waiting agent's own time does not, and a sleeping tree
// shows nothing.
func TestCPURealReapedChildren(t *testing.T) {
	builder := startTree(t, `sh -c 'for n in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do `+
		`sh -c "i=0; while [ \$i -lt 20000 ]; do i=\$((i+1)); done"; done; sleep 60' & wait`)
	idle := startTree(t, `sleep 60 & wait`)
	const share = 0.01 // a loaded machine may give the builder little of a core
	c := NewCPU(CPUOptions{Share: share})
	bt := supervisor.ProbeTarget{SessionID: "build", PID: builder}
	it := supervisor.ProbeTarget{SessionID: "idle", PID: idle}
	for _, tg := range []supervisor.ProbeTarget{bt, it} {
		if err := c.Observe(tg); err != nil {
			t.Fatal(err)
		}
	}
	since := time.Now()
	// Real work, really waited for: up to 30 s on a loaded machine, a probe
	// a second.
	testwait.Eventually(t, 30*time.Second, func() error {
		time.Sleep(time.Second)
		life, alive, err := c.Probe(context.Background(), bt, since)
		if err != nil {
			t.Fatal(err)
		}
		if !alive || !strings.Contains(life.Detail, exitedLabel) {
			return fmt.Errorf("alive=%v (%q)", alive, life.Detail)
		}
		return nil
	}, "the build alive with the work of exited children")
	if life, alive, err := c.Probe(context.Background(), it, since); err != nil || alive {
		t.Fatalf("sleeping tree: alive=%v (%q) err=%v, want not alive", alive, life.Detail, err)
	}
}
