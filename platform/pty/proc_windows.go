package pty

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/buildstation/buildstation/platform/treekill"

	"golang.org/x/sys/windows"
)

// After the agent exits its console may still be rendering. Once the agent
// has exited and no output has come for drainQuiet (or drainMax at most),
// the pseudo console is closed: conhost ends, the output pipe breaks, and
// Read returns io.EOF after the last byte.
const (
	drainQuiet = 250 * time.Millisecond
	drainMax   = 3 * time.Second
	drainPoll  = 50 * time.Millisecond // how often the drain checks for quiet
	// pumpWait bounds how long Close waits for the pump to see the pipe
	// break after ClosePseudoConsole.
	pumpWait = 5 * time.Second
)

// proc is one running agent in a pseudo console.
type proc struct {
	c   *console
	pid int

	// The pump goroutine copies console output into outW; Read reads outR.
	// The pump never stops reading until the pipe breaks, even after Read
	// has ended: ClosePseudoConsole blocks until the output is drained on
	// Windows before 11 24H2, and a console whose pipe is full stalls the
	// agent.
	outR     *io.PipeReader
	outW     *io.PipeWriter
	lastOut  atomic.Int64 // unix nanoseconds of the last output
	pumpDone chan struct{}

	done chan struct{} // closed once the agent exited; code, err set before
	code int
	err  error

	consoleOnce sync.Once // ClosePseudoConsole, from the drain or Close
	inMu        sync.Mutex
	inClosed    bool // Write and Resize fail once the console is gone

	stopOnce treekill.Once

	closeOnce sync.Once
}

var _ JobAccounter = (*proc)(nil)

func newProc(c *console) *proc {
	r, w := io.Pipe()
	p := &proc{c: c, pid: c.pid, outR: r, outW: w, pumpDone: make(chan struct{}), done: make(chan struct{})}
	p.lastOut.Store(time.Now().UnixNano())
	go p.pump()
	go p.wait()
	return p
}

// pump copies console output to outW until the console pipe breaks.
func (p *proc) pump() {
	defer close(p.pumpDone)
	buf := make([]byte, 32*1024)
	for {
		n, err := p.c.out.Read(buf)
		if n > 0 {
			p.lastOut.Store(time.Now().UnixNano())
			_, _ = p.outW.Write(buf[:n]) // fails at once after Close: discarded
		}
		if err != nil {
			_ = p.outW.CloseWithError(io.EOF) // a broken pipe is the end of output
			return
		}
	}
}

// wait detects the exit (WaitForSingleObject on the process handle we were
// given at creation, so a reused pid cannot fool it), then drains and
// closes the console. Wait and Stop share its result.
func (p *proc) wait() {
	ev, err := windows.WaitForSingleObject(p.c.process, windows.INFINITE)
	var code uint32
	if err == nil && ev == windows.WAIT_OBJECT_0 {
		err = windows.GetExitCodeProcess(p.c.process, &code)
	} else if err == nil {
		err = fmt.Errorf("wait returned %#x", ev)
	}
	p.code = int(int32(code)) // NTSTATUS codes such as 0xC000013A read as negative
	if err != nil {
		p.code, p.err = -1, fmt.Errorf("wait for agent %d: %w", p.pid, err)
	}
	close(p.done)
	p.drain()
}

// drain waits for the exited agent's console to go quiet, then closes it.
func (p *proc) drain() {
	end := time.Now().Add(drainMax)
	tick := time.NewTicker(drainPoll)
	defer tick.Stop()
	for now := range tick.C {
		if now.After(end) || now.Sub(time.Unix(0, p.lastOut.Load())) >= drainQuiet {
			break
		}
	}
	p.closeConsole()
}

// closeConsole closes the pseudo console once, with the pump still reading.
func (p *proc) closeConsole() {
	p.consoleOnce.Do(func() {
		p.inMu.Lock()
		p.inClosed = true
		p.inMu.Unlock()
		p.c.closeConsole()
	})
}

func (p *proc) Pid() int { return p.pid }

// Read reads the console's output; io.EOF once the agent exited and its
// output drained, or after Close.
func (p *proc) Read(b []byte) (int, error) {
	n, err := p.outR.Read(b)
	if errors.Is(err, io.ErrClosedPipe) {
		err = io.EOF
	}
	return n, err
}

// Write types into the console.
func (p *proc) Write(b []byte) (int, error) {
	p.inMu.Lock()
	defer p.inMu.Unlock()
	if p.inClosed {
		return 0, fmt.Errorf("write to agent %d: console closed", p.pid)
	}
	return p.c.in.Write(b)
}

// Resize sets the console size.
func (p *proc) Resize(cols, rows uint16) error {
	cols, rows = Size(cols, rows)
	p.inMu.Lock()
	defer p.inMu.Unlock()
	if p.inClosed {
		return fmt.Errorf("resize agent %d: console closed", p.pid)
	}
	return windows.ResizePseudoConsole(p.c.hpc, windows.Coord{X: int16(cols), Y: int16(rows)})
}

// Wait returns the agent's exit code.
func (p *proc) Wait() (int, error) {
	<-p.done
	return p.code, p.err
}

// JobCPU is the CPU time the agent's whole tree has used so far (see
// JobAccounter); 0 if the job cannot be read.
func (p *proc) JobCPU() time.Duration {
	d, err := p.c.cpu()
	if err != nil {
		return 0
	}
	return d
}

// Close ends Read, closes the console while the pump keeps draining it,
// then releases the handles; closing the job ends whatever of the tree is
// still running (KILL_ON_JOB_CLOSE). Safe to call more than once.
func (p *proc) Close() error {
	p.closeOnce.Do(func() {
		_ = p.outR.Close()
		p.closeConsole()
		t := time.NewTimer(pumpWait)
		select {
		case <-p.pumpDone:
		case <-t.C: // the handles close anyway; the pump's read then fails
		}
		t.Stop()
		// The job first: closing it kills the tree, so the waiter returns
		// before the process handle it waits on is closed.
		p.c.closeJob()
		t = time.NewTimer(pumpWait)
		select {
		case <-p.done:
		case <-t.C:
		}
		t.Stop()
		p.c.release()
	})
	return nil
}
