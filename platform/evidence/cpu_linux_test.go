package evidence

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// TestCPURealProcesses runs real trees: a parent shell
// that only waits while its child spins. The parent's own time stays near
// zero; the child's is the work.
func TestCPURealProcesses(t *testing.T) {
	busy := startTree(t, `sh -c 'while :; do :; done' & wait`)
	idle := startTree(t, `sleep 30 & wait`)
	// A low share: on a loaded machine (CI, other jobs) the spinning child
	// may get only a few percent of a core; the sleeping tree gets none.
	const share = 0.01
	c := NewCPU(CPUOptions{Share: share})
	busyT := supervisor.ProbeTarget{SessionID: "busy", PID: busy}
	idleT := supervisor.ProbeTarget{SessionID: "idle", PID: idle}
	for _, tg := range []supervisor.ProbeTarget{busyT, idleT} {
		if err := c.Observe(tg); err != nil {
			t.Fatal(err)
		}
	}
	// A real wait: the point is CPU really burned by a real child.
	time.Sleep(1500 * time.Millisecond)
	since := time.Now().Add(-time.Second)

	life, alive, err := c.Probe(context.Background(), busyT, since)
	if err != nil || !alive {
		t.Fatalf("busy tree: alive=%v err=%v, want alive", alive, err)
	}
	if !strings.Contains(life.Detail, "CPU in sh") {
		t.Errorf("busy detail = %q, want the spinning sh named", life.Detail)
	}
	if life, alive, err := c.Probe(context.Background(), idleT, since); err != nil || alive {
		t.Fatalf("sleeping tree: alive=%v (%q) err=%v, want not alive", alive, life.Detail, err)
	}

	// A prober that never observed the session measures from the agent's
	// start, read from /proc/stat's btime and the agent's start time (Linux
	// only: elsewhere the first probe of a session is its baseline).
	fresh := NewCPU(CPUOptions{Share: share})
	if life, alive, err := fresh.Probe(context.Background(), busyT, since); err != nil || !alive {
		t.Fatalf("first probe of the busy tree: alive=%v (%q) err=%v, want alive", alive, life.Detail, err)
	}
	if life, alive, err := fresh.Probe(context.Background(), idleT, since); err != nil || alive {
		t.Fatalf("first probe of the sleeping tree: alive=%v (%q) err=%v, want not alive", alive, life.Detail, err)
	}
}
