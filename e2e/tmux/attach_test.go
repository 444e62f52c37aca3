//go:build unix

package tmux_test

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/buildstation/buildstation/e2e/rig"
)

// The detach key is the same on both backends: Ctrl-] in an attached tmux
// console detaches the client and never reaches the agent. The session is
// named by its task id.
func TestTmuxAttachDetachesOnCtrlBracket(t *testing.T) {
	t.Parallel()
	home := newHome(t, projectTOML("web", t.TempDir(), "30s", "30s"))
	s := rig.StartOn(t, home)
	id := s.AddTask("web", "reader", "print ready; read; complete got it")
	s.WaitTranscript(id, "ready", 20*time.Second)

	cmd := exec.Command(rig.Bin(), "session", "attach", id)
	cmd.Env = rig.Env(rig.Bin(), home, "TERM=xterm")
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 100, Rows: 30})
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	var mu sync.Mutex
	var screen bytes.Buffer
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	seen := func(want string) bool { mu.Lock(); defer mu.Unlock(); return strings.Contains(screen.String(), want) }
	rig.Eventually(t, 15*time.Second, func() bool { return seen("ready") }, "the attached console to show the agent",
		rig.Later(func() string { mu.Lock(); defer mu.Unlock(); return fmt.Sprintf("%q", screen.String()) }))
	// tmux itself, not the station's console API: the command line's
	// wiring (cli.Deps.TmuxAttach) reached the window.
	if !seen("attaching to "+id+".") || !seen(" in tmux; press Ctrl-]") {
		mu.Lock()
		t.Errorf("session attach did not attach with tmux: %q", screen.String())
		mu.Unlock()
	}
	if _, err := ptmx.Write([]byte{0x1d}); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("attach exited with %v", err)
		}
	case <-time.After(15 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("Ctrl-] did not detach the tmux console")
	}
	// The agent never read it: it still waits for a line.
	time.Sleep(500 * time.Millisecond)
	if got := s.Task(id); got.State != "working" {
		t.Errorf("task %s after the detach: the key reached the agent", got.State)
	}
}
