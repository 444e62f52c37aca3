//go:build unix

package guard

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"
)

// The test binary is the guard too: Client starts it with the helper
// variable set, as a station starts buildstation fence-guard.
func TestMain(m *testing.M) {
	if os.Getenv("GUARD_TEST_HELPER") == "1" {
		err := Run(context.Background(), os.Stdin, Options{End: func(s Session) error { return EndSession(s, 100*time.Millisecond) }, Poll: 10 * time.Millisecond})
		if err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// A guard that died is started again with what it must know: the agent
// watched before its death is ended by the new one when the deadline
// passes.
func TestClientRestartsADeadGuard(t *testing.T) {
	t.Setenv("GUARD_TEST_HELPER", "1")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c, err := Start(self, t.TempDir(), time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	a := agent(t, "BUILDSTATION_TOKEN=guardtest-restart")
	c.Watch("t1.1", a.Process.Pid, "BUILDSTATION_TOKEN=guardtest-restart", "", "")
	c.Deadline(time.Hour, time.Now().Add(time.Hour))
	c.mu.Lock()
	first := c.cmd.Process
	exited := c.exited
	c.mu.Unlock()
	_ = first.Kill()
	<-exited
	// The next line fails on the dead guard's pipe and starts another,
	// which hears of the agent again, and then of a deadline that passed.
	c.Deadline(0, time.Time{})
	waited := make(chan error, 1)
	go func() { waited <- a.Wait() }()
	select {
	case <-waited:
	case <-time.After(30 * time.Second):
		t.Fatal("the restarted guard did not end the agent")
	}
	c.mu.Lock()
	again := c.cmd.Process
	c.mu.Unlock()
	if again.Pid == first.Pid {
		t.Fatal("no new guard was started")
	}
	if err := syscall.Kill(again.Pid, 0); err != nil {
		t.Errorf("the new guard is gone: %v", err)
	}
}
