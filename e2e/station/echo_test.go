//go:build linux

package station_test

import (
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

// With every core busy, a wedged agent's terminal echoes the nudge late.
// The station knows what it typed and does not take that echo for life,
// however late it comes: exactly one nudge, then the block, and the block
// reason quotes the agent's last line, not ours.
func TestWedgedAgentUnderCPULoadIsNudgedOnce(t *testing.T) {
	t.Parallel()
	s := rig.StartOn(t, rig.WriteConfig(t, rig.ProjectTOML("web", t.TempDir(), "2s", "4s")))
	// Stress: two busy shells per core, for as long as the test runs.
	for range 2 * runtime.NumCPU() {
		burn := exec.Command("sh", "-c", "while :; do :; done")
		burn.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := burn.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = syscall.Kill(-burn.Process.Pid, syscall.SIGKILL); _ = burn.Wait() })
	}
	id := s.AddTask("web", "wedged", "print migrating 0042; wedge")
	got := s.WaitState(id, "blocked", 60*time.Second)
	if n := strings.Count(s.Log.String(), "msg=nudged"); n != 1 {
		t.Fatalf("nudged %d times, want once:\n%s", n, s.Log)
	}
	if !strings.Contains(got.Reason, `last line "migrating 0042"`) {
		t.Errorf("reason: %s", got.Reason)
	}
	if tr := s.Transcript(id, 1); !strings.Contains(tr, "Note:") {
		t.Errorf("the nudge's echo is not in the transcript (the test did not test an echo):\n%s", tr)
	}
}
