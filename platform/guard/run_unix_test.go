//go:build unix

package guard

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// agent starts a real process tree standing in for a session's agent: a
// shell in a session of its own with a child, marked as the station marks
// a session.
func agent(t *testing.T, marker string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sh", "-c", "sleep 300 & wait")
	cmd.Env = append(os.Environ(), marker)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	return cmd
}

func feed(t *testing.T, w io.Writer, ms ...message) {
	t.Helper()
	for _, m := range ms {
		b, _ := json.Marshal(m)
		if _, err := w.Write(append(b, '\n')); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRunEndsAStationsAgents: a guard whose deadline passed ends the
// agent's tree and writes its note first; the station's normal stop ends
// nothing.
func TestRunEndsAStationsAgents(t *testing.T) {
	dir := t.TempDir()
	fenced := agent(t, "BUILDSTATION_TOKEN=guardtest-fenced")
	kept := agent(t, "BUILDSTATION_TOKEN=guardtest-kept")
	note := filepath.Join(dir, "fenced")

	r, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), r, Options{End: func(s Session) error { return EndSession(s, 100*time.Millisecond) }, Poll: 10 * time.Millisecond})
	}()
	s := Session{ID: "t1.1", Leader: fenced.Process.Pid, Ident: Ident(fenced.Process.Pid), Marker: "BUILDSTATION_TOKEN=guardtest-fenced", Note: note}
	feed(t, w, message{Op: "watch", Session: &s}, message{Op: "deadline", In: 0})
	exited := make(chan error, 1)
	go func() { exited <- fenced.Wait() }()
	select {
	case <-exited:
	case <-time.After(30 * time.Second):
		t.Fatal("the guard did not end the agent past its deadline")
	}
	if _, err := os.Stat(note); err != nil {
		t.Errorf("no note of the fence: %v", err)
	}

	k := Session{ID: "t2.1", Leader: kept.Process.Pid, Ident: Ident(kept.Process.Pid), Marker: "BUILDSTATION_TOKEN=guardtest-kept"}
	feed(t, w, message{Op: "watch", Session: &k}, message{Op: "deadline", In: time.Hour}, message{Op: "stop"})
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the guard did not stop when told")
	}
	if err := syscall.Kill(kept.Process.Pid, 0); err != nil {
		t.Errorf("the guard of a station that stopped normally ended an agent: %v", err)
	}
}
