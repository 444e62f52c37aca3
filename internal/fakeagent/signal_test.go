//go:build unix

package fakeagent

import (
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startAgent runs the fake agent as its own process and returns once it has
// printed its first line, so its signal set-up is done.
func startAgent(t *testing.T, script string) (*exec.Cmd, <-chan error) {
	t.Helper()
	cmd := exec.Command(self(), "fake-agent", script)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	buf := make([]byte, 64)
	if n, err := stdout.Read(buf); err != nil || !strings.Contains(string(buf[:n]), "up") {
		t.Fatalf("first output %q, %v", buf[:n], err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	return cmd, exited
}

func TestSIGTERMEndsAnAgent(t *testing.T) {
	cmd, exited := startAgent(t, "print up; sleep 1m")
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-exited:
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 130 {
			t.Errorf("after SIGTERM: %v, want exit status 130", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("SIGTERM did not end the agent")
	}
}

func TestIgnoreTerm(t *testing.T) {
	cmd, exited := startAgent(t, "ignore-term; print up; sleep 1m")
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Process.Signal(syscall.SIGHUP)
	// Proving a non-event takes real time; a short wait is enough to fail
	// when the signal is not ignored (the case above exits in milliseconds).
	select {
	case err := <-exited:
		t.Fatalf("the agent died of a polite signal: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	cmd.Process.Kill()
	<-exited
}
