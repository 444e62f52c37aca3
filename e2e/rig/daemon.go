//go:build unix

package rig

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"syscall"
	"time"

	"github.com/buildstation/buildstation/supervisor/client"
)

// Daemon is one `buildstation daemon` process on a home, in a process group
// of its own so that whatever it leaves can be ended with it, and reaped by
// a goroutine of its own. It touches no test: a Station is a Daemon driven
// from a test, and the bench program runs Daemons too.
type Daemon struct {
	Home string

	cmd  *exec.Cmd
	done chan struct{} // closed when the daemon has exited and been reaped
}

// StartDaemon runs `bin daemon --home home` with env as its whole
// environment and out as its stdout and stderr (nil discards them). It does
// not wait for the API: WaitReady does.
func StartDaemon(bin, home string, env []string, out io.Writer) (*Daemon, error) {
	d := &Daemon{Home: home, done: make(chan struct{})}
	d.cmd = exec.Command(bin, "daemon", "--home", home)
	d.cmd.Env = env
	d.cmd.Stdout, d.cmd.Stderr = out, out
	d.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := d.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the station on %s: %w", home, err)
	}
	go func() { _ = d.cmd.Wait(); close(d.done) }()
	return d, nil
}

// WaitReady waits until the API answers a status call, checking every
// every, and fails when the daemon exits first or timeout passes. A poll,
// not an event: nothing tells a client the API is up before it answers.
// The bench times start-up by it, so the interval is the caller's.
func (d *Daemon) WaitReady(timeout, every time.Duration) error {
	limit := time.After(timeout)
	for !d.Answers() {
		select {
		case <-d.done:
			return errors.New("the station exited before its API answered")
		case <-limit:
			return fmt.Errorf("the station's API did not answer within %s", timeout)
		case <-time.After(every):
		}
	}
	return nil
}

// Answers reports whether the daemon's API answers a status call.
func (d *Daemon) Answers() bool {
	c, err := client.Dial(d.Home)
	if err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err = c.Status(ctx)
	return err == nil
}

// PID is the daemon's process id.
func (d *Daemon) PID() int { return d.cmd.Process.Pid }

// Running reports whether the daemon has not exited.
func (d *Daemon) Running() bool {
	select {
	case <-d.done:
		return false
	default:
		return true
	}
}

// StopWithin ends the daemon politely and at once: SIGTERM, which starts
// its drain, then SIGTERM again (a person's second Ctrl-C), which ends its
// sessions now; it kills its whole group if it is still there after
// grace. The signal is repeated until the station goes, as two sent at
// once may reach it as one.
func (d *Daemon) StopWithin(grace time.Duration) {
	if !d.Running() {
		return
	}
	deadline := time.After(grace)
	for {
		_ = d.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-d.done:
			return
		case <-time.After(200 * time.Millisecond):
		case <-deadline:
			_ = syscall.Kill(-d.PID(), syscall.SIGKILL)
			<-d.done
			return
		}
	}
}

// Drain sends the daemon one SIGTERM, a person's first Ctrl-C: it starts
// no new task and lets the running sessions finish within stop_grace.
func (d *Daemon) Drain() { _ = d.cmd.Process.Signal(syscall.SIGTERM) }

// Kill9 kills the daemon with SIGKILL, as a crash would, and waits until
// it is reaped.
func (d *Daemon) Kill9() {
	_ = d.cmd.Process.Kill()
	<-d.done
}

// ExitCode waits up to timeout for the daemon to exit on its own and
// returns its exit code; ok is false when it still runs.
func (d *Daemon) ExitCode(timeout time.Duration) (code int, ok bool) {
	select {
	case <-d.done:
		return d.cmd.ProcessState.ExitCode(), true
	case <-time.After(timeout):
		return 0, false
	}
}
