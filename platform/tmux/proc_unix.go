//go:build unix

package tmux

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/buildstation/buildstation/platform/pty"
	"github.com/buildstation/buildstation/platform/treekill"
)

// proc is one agent window: its pane's process, and the pipe its output
// arrives on (tmux's pipe-pane, handed to this process: see HandOff).
type proc struct {
	sp  *Spawner
	w   window
	dir string    // the run folder: the launch script
	out *os.File  // our end of the pane's output pipe
	in  io.Reader // reads out (paneReader: on Linux a flood's pieces gathered)

	// done closes once the watcher has learned how the agent ended; code
	// and err are set before and read only after.
	done chan struct{}
	code int
	err  error

	pokes     chan struct{} // the monitor saw the pane change (see poke)
	closed    chan struct{} // Close was called: the watcher gives up
	closeOnce sync.Once
	closeErr  error

	stopOnce treekill.Once

	// marker is the session's own environment entry (empty for an adopted
	// session: the spec is gone); Stop also ends the processes carrying it.
	marker string
}

func (s *Spawner) newProc(w window, dir string, out *os.File) *proc {
	s.use(dir, true)
	p := &proc{sp: s, w: w, dir: dir, out: out, in: paneReader(out), done: make(chan struct{}), closed: make(chan struct{}), pokes: make(chan struct{}, 1)}
	go p.watch()
	return p
}

// Pid is the pane's process: the agent itself, once the launch script has
// exec'd it, and the leader of the pane's session and process group.
func (p *proc) Pid() int { return p.w.pid }

// Handle is what Spawner.Adopt takes to find this window again.
func (p *proc) Handle() string { return makeHandle(p.w.id, p.w.name) }

// Read reads the pane's output as pipe-pane delivers it (on Linux a
// flood's pieces gathered: gatherer); one goroutine reads. It returns io.EOF once the
// pipe is gone (the agent exited, or the window did) and drained, or after
// Close.
func (p *proc) Read(b []byte) (int, error) {
	n, err := p.in.Read(b)
	if err != nil && errors.Is(err, os.ErrClosed) {
		err = io.EOF
	}
	return n, err
}

// Write types b into the pane (see keyCommands for how bytes become keys).
func (p *proc) Write(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
	defer cancel()
	if _, err := p.sp.do(ctx, keyCommands(p.w.pane, b)...); err != nil {
		return 0, fmt.Errorf("type into session window %s: %w", p.w.id, err)
	}
	return len(b), nil
}

// Resize sets the window's size. A window sized by hand stays that size
// when a person attaches with a smaller terminal; tmux shows the rest as
// the edge of the window.
func (p *proc) Resize(cols, rows uint16) error {
	cols, rows = pty.Size(cols, rows)
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
	defer cancel()
	_, err := p.sp.do(ctx, "resize-window", "-t", p.w.id, "-x", strconv.Itoa(int(cols)), "-y", strconv.Itoa(int(rows)))
	return err
}

// Wait returns the agent's exit: its code, or -1 and a *SignalError when a
// signal ended it; -1 and ErrDetached when the Proc was closed first.
func (p *proc) Wait() (int, error) {
	<-p.done
	return p.code, p.err
}

// Close releases the output pipe and the run folder. A window whose agent
// has exited is gone already (remain-on-exit kept it only until its status
// was read); one still running is left for a later Adopt. It is safe to call more than
// once.
func (p *proc) Close() error {
	p.closeOnce.Do(func() {
		close(p.closed)
		<-p.done
		ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
		defer cancel()
		var err error
		if errors.Is(p.err, ErrDetached) {
			_, err = p.sp.do(ctx, "pipe-pane", "-t", p.w.pane)
		} else {
			_, err = p.sp.do(ctx, "kill-window", "-t", p.w.id)
		}
		if err != nil && missing(err) {
			err = nil
		}
		p.closeErr = errors.Join(err, p.out.Close())
		_ = os.RemoveAll(p.dir)
		p.sp.use(p.dir, false)
	})
	return p.closeErr
}

// paneState is what tmux says of the pane: dead or not, and how it ended.
//
// A pane is dead for tmux once its terminal is closed, which may come a
// moment before the process's exit status is collected (or long before,
// for an agent that closed its terminal and went on): exited says the
// status is known, and only that settles Wait.
type paneState struct {
	gone, dead, exited bool
	status             int // exit code when dead by exit
	signal             int // signal number when dead by signal
	server             int // the tmux server's pid
}

func (s *Spawner) paneState(ctx context.Context, pane string) (paneState, error) {
	out, err := s.do(ctx, "display-message", "-p", "-t", pane, "#{pane_id} #{pane_dead} #{pane_dead_status} #{pane_dead_signal} #{pid}")
	if err != nil {
		if missing(err) {
			return paneState{gone: true}, nil
		}
		return paneState{}, err
	}
	return parsePaneState(pane, out), nil
}

// parsePaneState reads "#{pane_id} #{pane_dead} #{pane_dead_status}
// #{pane_dead_signal} #{pid}"; tmux leaves the field that does not apply
// empty. tmux 3.3 answers for a pane that no longer exists without an
// error, with no pane in the answer: that pane is gone.
func parsePaneState(pane, out string) paneState {
	var st paneState
	id, rest, _ := strings.Cut(out, " ")
	f := splitFields(rest, 4)
	st.server, _ = strconv.Atoi(f[3])
	if id != pane {
		st.gone = true
		return st
	}
	st.dead = f[0] == "1"
	st.exited = st.dead && (f[1] != "" || f[2] != "")
	st.status, _ = strconv.Atoi(f[1])
	st.signal, _ = strconv.Atoi(f[2])
	return st
}

// splitFields splits tmux's space-separated answer into exactly n fields,
// keeping empty ones; the last takes the rest of the line.
func splitFields(s string, n int) []string {
	f := strings.SplitN(strings.TrimRight(s, "\r\n"), " ", n)
	for len(f) < n {
		f = append(f, "")
	}
	return f
}

// settle records how the agent ended and lets Wait return. A dead pane's
// window goes, which ends its pipe, so the reader drains to EOF.
func (p *proc) settle(st paneState, err error) {
	switch {
	case err != nil:
		p.code, p.err = -1, err
	case st.gone:
		p.code, p.err = -1, errors.New("tmux window is gone: it was killed, or its server was")
	case st.signal != 0:
		p.code, p.err = -1, &SignalError{Signal: st.signal}
	default:
		p.code = st.status
	}
	if st.dead {
		// tmux refuses pipe-pane on a dead pane, even to close the pipe;
		// killing the window closes it, and its status is read.
		ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
		_, _ = p.sp.do(ctx, "kill-window", "-t", p.w.id)
		cancel()
	}
}

// checkTimeout bounds one look at a pane.
const checkTimeout = 5 * time.Second
