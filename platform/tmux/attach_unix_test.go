//go:build unix

package tmux

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/ptytest"
	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/platform/internal/proctest"
	"github.com/buildstation/buildstation/supervisor"
)

// Attach puts a person's terminal on a session's own window, found by the
// session's id on the server in the home; Ctrl-] detaches that client and
// never reaches the agent. Where there is no server or no such window it
// finds nothing, for the CLI to use the station's console API instead.
func TestAttach(t *testing.T) {
	t.Setenv("TERM", "xterm") // tmux attaches only to a terminal it knows
	s := newSpawner(t)
	home := filepath.Dir(s.Socket())
	if found, err := Attach(home, "t42.1", nil, nil, nil, nil); found || err != nil {
		t.Fatalf("Attach with no server = %v, %v; want not found", found, err)
	}
	p := proctest.Spawn(t, s, supervisor.SpawnSpec{Argv: []string{"sh", "-c", "echo ready; read x; echo got:$x; sleep 300"},
		Env: append(os.Environ(), "BUILDSTATION_SESSION_ID=t42.1")})
	out := proctest.Collect(p)
	out.WaitFor(t, "ready")
	if found, err := Attach(home, "t9.1", nil, nil, nil, nil); found || err != nil {
		t.Fatalf("Attach to a window that is not there = %v, %v; want not found", found, err)
	}

	// The status line's timer runs only while a person is attached
	// (quietStatus): the station's own client does not wake the server.
	interval := func() string {
		out, err := s.run(t.Context(), "display-message", "-p", "-t", "="+SessionName+":", "#{status-interval}")
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(out)
	}
	testwait.Eventually(t, proctest.Deadline, func() bool { return interval() == "0" }, "the status timer to stop")

	ptmx, tty := ptytest.Open(t, 100, 30)
	screen := proctest.Collect(ptmx)
	type result struct {
		found bool
		err   error
	}
	done := make(chan result, 1)
	attaching := make(chan struct{})
	go func() {
		found, err := Attach(home, "t42.1", tty, tty, tty, func() { close(attaching) })
		done <- result{found, err}
	}()
	<-attaching
	screen.WaitFor(t, "ready")
	if got := interval(); got == "0" {
		t.Errorf("status-interval while a person is attached = %s; want tmux's own", got)
	}
	if _, err := ptmx.Write([]byte{0x1d}); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-done:
		if !r.found || r.err != nil {
			t.Fatalf("Attach = %v, %v; want found, nil", r.found, r.err)
		}
	case <-time.After(proctest.Deadline):
		t.Fatalf("Ctrl-] did not detach; screen %q", proctest.Tail(screen.String()))
	}
	if got := interval(); got != "0" {
		t.Errorf("status-interval after the person detached = %s; want 0", got)
	}
	// The agent never read the key: its line is what the station types.
	if _, err := p.Write([]byte("x\n")); err != nil {
		t.Fatal(err)
	}
	out.WaitFor(t, "got:x\r\n")
}
