//go:build linux

package fault

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

// TestFullDiskForTranscripts puts logs/ (transcripts, prompt files, the
// station's own log) on a 1 MiB tmpfs and runs a session that prints 3 MB:
// the disk fills mid-session. The session goes on to complete, the error is
// said once, and the station neither crashes nor stops answering.
func TestFullDiskForTranscripts(t *testing.T) {
	home := rig.WriteConfig(t, fmt.Sprintf(`[[projects]]
name = "p"
path = %q
command = ["sh", "-c", "yes 0123456789012345678901234567890123456789 | head -c 3000000; exec buildstation fake-agent 'heartbeat 100ms 1s; complete done on a full disk'"]
idle_window = "30s"
block_window = "30s"
`, t.TempDir()))
	logs := filepath.Join(home, "logs")
	if err := os.MkdirAll(logs, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", logs).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a 1 MiB tmpfs on logs/ to fill the disk (needs root and mount rights): %v %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", logs).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", logs, err, out)
		}
	})
	s := rig.StartOn(t, home) // cleanups run last-in first-out: the station stops before the umount
	id := strings.TrimSpace(s.Must("task", "add", "--project", "p", "--title", "fills the disk"))
	got := s.WaitState(id, "done", 30*time.Second)
	if !s.Running() {
		t.Fatalf("the station died on a full disk:\n%s", rig.Tail(s.Log.String(), 3000))
	}
	if _, _, code := cli(home, "status"); code != 0 {
		t.Fatal("the station does not answer status after the disk filled")
	}
	out := s.Log.String()
	if n := strings.Count(out, "transcript write failed"); n != 1 {
		t.Errorf("the station said %d times that the transcript failed, want once:\n%s", n, rig.Tail(out, 3000))
	}
	fi, err := os.Stat(filepath.Join(logs, id+".1.log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("task %s %s (%s); transcript stopped at %d bytes of ~3 MB", id, got.State, got.Reason, fi.Size())

	// With the disk still full, the next task cannot have its prompt file
	// written: it must not take the station down, and its reason must say
	// what to fix.
	next := strings.TrimSpace(s.Must("task", "add", "--project", "p", "--title", "after the disk filled"))
	var tk rig.Task
	rig.Eventually(t, 20*time.Second, func() error {
		if tk = s.Task(next); tk.State != "done" && tk.State != "blocked" {
			return fmt.Errorf("it is %s", tk.State)
		}
		return nil
	}, "the task on a full disk to end")
	t.Logf("a task started on the full disk ends %s: %q", tk.State, tk.Reason)
	if tk.State == "blocked" && !strings.Contains(tk.Reason, "no space left") {
		t.Errorf("blocked for a full disk with a reason that does not say so: %q", tk.Reason)
	}
	if !s.Running() {
		t.Fatalf("the station died on a full disk:\n%s", rig.Tail(s.Log.String(), 3000))
	}
}
