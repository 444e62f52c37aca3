//go:build linux

package fault

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
	"github.com/buildstation/buildstation/platform/proctree"
)

// TestCrashEndsTheLostSessionsProcesses kills the station with SIGKILL
// while its pty agent runs with a setsid'd grandchild and ignores SIGHUP
// (as under nohup). The restarted station cannot adopt a pty session: it
// blocks the task "station restarted: session lost", and by then nothing of
// the old session may run, or a requeue would start a second agent in the
// same worktree beside it.
func TestCrashEndsTheLostSessionsProcesses(t *testing.T) {
	agent := `setsid sleep 311 & trap '' HUP; exec buildstation fake-agent "print ready; wedge"`
	home := rig.WriteConfig(t, fmt.Sprintf(`[[projects]]
name = "p"
path = %q
command = ["sh", "-c", %q]
idle_window = "1m"
block_window = "1m"
`, t.TempDir(), agent))
	s := rig.StartOn(t, home)
	id := strings.TrimSpace(s.Must("task", "add", "--project", "p", "--title", "lost"))
	sid := id + ".1"
	var tree []proctree.Proc
	rig.Eventually(t, 15*time.Second, func() error {
		if tree = tagged(home, sid); len(tree) < 2 {
			return fmt.Errorf("%d processes, want 2", len(tree))
		}
		return nil
	}, "the agent's tree")
	t.Cleanup(func() {
		for _, p := range tree {
			killPid(p)
		}
	})
	s.Kill9()
	// The crash alone leaves them running: that is what recovery must end.
	time.Sleep(500 * time.Millisecond)
	alive := 0
	for _, p := range tree {
		if rig.Running(p) {
			alive++
		}
	}
	if alive == 0 {
		t.Fatal("the crash itself ended the agent's tree; the test proves nothing")
	}

	s2 := rig.StartOn(t, home)
	got := s2.WaitState(id, "blocked", 20*time.Second)
	if got.Reason != "station restarted: session lost" {
		t.Fatalf("blocked for %q", got.Reason)
	}
	var left []string
	for _, p := range tree {
		if rig.Running(p) {
			left = append(left, fmt.Sprintf("%d %s", p.PID, cmdline(p.PID)))
		}
	}
	if len(left) > 0 {
		t.Errorf("when the task was blocked, %d of the lost session's processes still ran:\n  %s", len(left), strings.Join(left, "\n  "))
	}
}
