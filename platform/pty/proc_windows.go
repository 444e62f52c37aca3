package pty

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/UserExistsError/conpty"
	"golang.org/x/sys/windows"
)

// After the agent exits, its console may still be flushing. ConPTY never
// ends the output pipe by itself (conpty keeps the pipe's write end open
// until Close), so Read ends once no output has come for drainQuiet after
// the exit, or drainMax at most.
const (
	drainQuiet = 250 * time.Millisecond
	drainMax   = 3 * time.Second
	drainPoll  = 50 * time.Millisecond // how often the drain checks for quiet
)

// proc is one running agent in a pseudo console.
type proc struct {
	cpty *conpty.ConPty
	job  windows.Handle // 0 when the agent could not be put in a job
	pid  int

	// The pump goroutine copies console output into outW; Read reads outR.
	// The copy is what lets Read end at exit (see drainQuiet) while the
	// pump's own read on the console pipe stays blocked until Close.
	outR    *io.PipeReader
	outW    *io.PipeWriter
	lastOut atomic.Int64 // unix nanoseconds of the last output

	done chan struct{} // closed once the agent exited; code, err set before
	code int
	err  error

	stopMu  sync.Mutex
	stopped bool
	stopErr error

	closeOnce sync.Once
	closeErr  error
}

func newProc(cpty *conpty.ConPty, job windows.Handle) *proc {
	r, w := io.Pipe()
	p := &proc{cpty: cpty, job: job, pid: cpty.Pid(), outR: r, outW: w, done: make(chan struct{})}
	p.lastOut.Store(time.Now().UnixNano())
	go p.pump()
	go p.wait()
	return p
}

// pump copies console output to outW until the console pipe breaks (Close).
// Once Read has ended it keeps reading and discards: some Windows builds
// block ClosePseudoConsole until the output pipe is drained.
func (p *proc) pump() {
	buf := make([]byte, 32*1024)
	for {
		n, err := p.cpty.Read(buf)
		if n > 0 {
			p.lastOut.Store(time.Now().UnixNano())
			_, _ = p.outW.Write(buf[:n]) // fails at once after the drain or Close
		}
		if err != nil {
			_ = p.outW.CloseWithError(io.EOF) // a broken pipe is the end of output
			return
		}
	}
}

// wait is the only caller of cpty.Wait; Wait and Stop share its result.
func (p *proc) wait() {
	code, err := p.cpty.Wait(context.Background())
	p.code = int(int32(code)) // NTSTATUS codes such as 0xC000013A read as negative
	if err != nil {
		p.err = fmt.Errorf("wait for agent %d: %w", p.pid, err)
	}
	close(p.done)
	p.drain()
}

// drain ends the output stream once the exited agent's console is quiet.
func (p *proc) drain() {
	end := time.Now().Add(drainMax)
	tick := time.NewTicker(drainPoll)
	defer tick.Stop()
	for now := range tick.C {
		if now.After(end) || now.Sub(time.Unix(0, p.lastOut.Load())) >= drainQuiet {
			break
		}
	}
	_ = p.outW.CloseWithError(io.EOF)
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
func (p *proc) Write(b []byte) (int, error) { return p.cpty.Write(b) }

// Resize sets the console size.
func (p *proc) Resize(cols, rows uint16) error {
	cols, rows = size(cols, rows)
	return p.cpty.Resize(int(cols), int(rows))
}

// Wait returns the agent's exit code.
func (p *proc) Wait() (int, error) {
	<-p.done
	return p.code, p.err
}

// Close releases the console and the job; closing the job ends whatever of
// the tree is still running (KILL_ON_JOB_CLOSE). Safe to call more than once.
func (p *proc) Close() error {
	p.closeOnce.Do(func() {
		_ = p.outR.Close()
		p.closeErr = p.cpty.Close()
		if p.job != 0 {
			_ = windows.CloseHandle(p.job)
		}
	})
	return p.closeErr
}
