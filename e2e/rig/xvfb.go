//go:build unix

package rig

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Xvfb runs a 1280×800 virtual X server of the test's own (extra are more
// of its arguments), stopped at the test's cleanup, and returns its
// DISPLAY. -displayfd picks a free display number and says which.
func Xvfb(t *testing.T, extra ...string) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("Xvfb", append([]string{"-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp"}, extra...)...)
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(r).ReadString('\n')
		r.Close()
		line <- strings.TrimSpace(s)
	}()
	select {
	case n := <-line:
		if n == "" {
			t.Fatal("Xvfb did not start")
		}
		return ":" + n
	case <-time.After(30 * time.Second):
		t.Fatal("Xvfb did not say its display within 30s")
	}
	return ""
}
