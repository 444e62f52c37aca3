//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The idle figure's window does not wake the tmux server it measures: it
// used to ask the server for its pid (a new tmux client) at the window's
// end, and at 300 panes that connection alone read 0.06–0.09% of a core
// over 10 s, the whole "tmux server" part of the figure (strace of the
// server showed nothing else in the window).
func TestIdleWindowLeavesTmuxServerAsleep(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("no tmux")
	}
	sock := filepath.Join(t.TempDir(), "t.sock")
	tmux := func(args ...string) string {
		t.Helper()
		c := exec.Command("tmux", append([]string{"-S", sock, "-f", "/dev/null"}, args...)...)
		c.Env = append(os.Environ(), "TMUX=")
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v %s", args, err, out)
		}
		return string(out)
	}
	// As the station's session is: no status timer, a few quiet panes.
	tmux("new-session", "-d", "-s", "bs", "sleep 300", ";", "set-option", "-g", "status-interval", "0",
		";", "new-window", "-d", "sleep 300", ";", "new-window", "-d", "sleep 300")
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", sock, "kill-server").Run() })
	server := tmuxServer(sock)
	if want, _ := strconv.Atoi(strings.TrimSpace(tmux("display-message", "-p", "#{pid}"))); server != want || server == 0 {
		t.Fatalf("tmuxServer = %d, want %d", server, want)
	}
	time.Sleep(500 * time.Millisecond) // the clients above are done with
	s, err := costOf(func() []int { return supervisors("tmux", os.Getpid(), server) }, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	p, ok := s.parts["tmux server"]
	if !ok {
		t.Fatalf("no tmux server among the parts measured: %s", s.partsString())
	}
	if p.runs > 0 {
		t.Errorf("the idle tmux server woke %d times in the measured window; want none (%s)", p.runs, s.partsString())
	}
}
