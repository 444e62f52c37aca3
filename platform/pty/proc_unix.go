//go:build unix

package pty

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"

	"github.com/buildstation/buildstation/platform/treekill"

	"golang.org/x/sys/unix"
)

// proc is one running agent and its terminal's master side.
type proc struct {
	cmd    *exec.Cmd
	master *os.File
	pid    int

	// done closes once the single waiter goroutine has reaped the agent;
	// code and err are set before and read only after.
	done chan struct{}
	code int
	err  error

	stopOnce treekill.Once

	closeOnce sync.Once
	closeErr  error

	// marker is the session's own environment entry; Stop also ends the
	// processes that carry it but left the tree.
	marker string
}

func newProc(cmd *exec.Cmd, master *os.File) *proc {
	p := &proc{cmd: cmd, master: master, pid: cmd.Process.Pid, done: make(chan struct{})}
	go p.wait()
	return p
}

// wait is the only caller of cmd.Wait, so any number of Wait and Stop calls
// can share its result.
func (p *proc) wait() {
	err := p.cmd.Wait()
	p.code, p.err = exitResult(p.cmd.ProcessState, err)
	close(p.done)
}

func exitResult(ps *os.ProcessState, err error) (int, error) {
	if ps == nil {
		return -1, err
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return -1, &SignalError{Signal: ws.Signal()}
	}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		err = nil // the code says it all
	}
	return ps.ExitCode(), err
}

func (p *proc) Pid() int { return p.pid }

// Read reads the terminal's output. Linux reports EIO on the master once
// every process has closed the terminal, and a closed master reports
// ErrClosed: both mean the output is over, so both read as io.EOF.
func (p *proc) Read(b []byte) (int, error) {
	n, err := p.master.Read(b)
	if err != nil && (errors.Is(err, syscall.EIO) || errors.Is(err, os.ErrClosed)) {
		err = io.EOF
	}
	return n, err
}

// Write types into the terminal.
func (p *proc) Write(b []byte) (int, error) { return p.master.Write(b) }

// Resize sets the terminal size; the kernel sends the agent SIGWINCH. It
// uses the ioctl through SyscallConn rather than pty.Setsize, which calls Fd
// and would put the master back into blocking mode.
func (p *proc) Resize(cols, rows uint16) error {
	cols, rows = Size(cols, rows)
	rc, err := p.master.SyscallConn()
	if err != nil {
		return err
	}
	var ioErr error
	if err := rc.Control(func(fd uintptr) {
		ioErr = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, &unix.Winsize{Row: rows, Col: cols})
	}); err != nil {
		return err
	}
	return ioErr
}

// Wait returns the agent's exit: its code, or -1 and a *SignalError when a
// signal ended it.
func (p *proc) Wait() (int, error) {
	<-p.done
	return p.code, p.err
}

// Close releases the master. It is safe to call more than once.
func (p *proc) Close() error {
	p.closeOnce.Do(func() { p.closeErr = p.master.Close() })
	return p.closeErr
}
