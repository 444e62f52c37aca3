package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/buildstation/buildstation/supervisor/client"
)

// sessionAttachOptions are `session attach`'s.
type sessionAttachOptions struct {
	*env
	ID string
}

func init() { subcommand("session", newSessionAttachCmd) }

func newSessionAttachCmd(e *env, runF func(*sessionAttachOptions) error) *cobra.Command {
	o := &sessionAttachOptions{env: e}
	return &cobra.Command{
		Use:   "attach ID",
		Short: "An interactive console on a session in this terminal (Ctrl-] detaches)",
		Long: `Attach this terminal to a session: its screen, your keys (Ctrl-C included)
typed into it. Ctrl-] detaches and leaves the session running. A session
of the tmux backend is attached with tmux itself.`,
		Example:           "  buildstation session attach t2.1",
		Args:              positional(1, 1),
		ValidArgsFunction: e.completeSessions,
		RunE:              runE(o, firstArg(&o.ID), runF, sessionAttachRun),
	}
}

// detachKey is Ctrl-] (0x1d), telnet's escape: rare in a TUI, so every
// other key, Ctrl-C included, can go to the agent.
const detachKey = 0x1d

// sessionAttachRun is an interactive console on a session in this terminal.
// A session of the tmux backend is attached with tmux itself (attachTmux).
// Otherwise, with a terminal on stdin it goes raw (keys go to the session
// as typed), follows the window size and detaches on Ctrl-]; without one it
// just copies stdin in and output out until the session ends.
func sessionAttachRun(o *sessionAttachOptions) error {
	e, id := o.env, o.ID
	c, err := e.client()
	if err != nil {
		return err
	}
	// A task id names its live session; tmux knows its window by the
	// session's own id.
	if info, err := c.Session(e.ctx, id); err == nil && info.ID != "" {
		id = info.ID
	}
	if ok, err := e.attachTmux(id); ok {
		return err
	}
	// Ctrl-C is typed into the session (the terminal is raw); a signal
	// from elsewhere (SIGTERM, or Ctrl-C without a terminal) ends the
	// attach with the terminal restored, not raw.
	ctx, cancel := signal.NotifyContext(e.ctx, os.Interrupt, syscall.SIGTERM)
	defer cancel()
	conn, err := c.Attach(ctx, id)
	if err != nil {
		return err
	}
	defer conn.Close()

	inFd, inTTY := terminalFd(e.stdin)
	if f, isFile := e.stdin.(*os.File); isFile && !inTTY && f != nil {
		// Not a hang: without a terminal there is no detach key, so the
		// output goes on until the session ends. Say so.
		fmt.Fprintf(e.stderr, "stdin is not a terminal: typing what it holds into %s, then showing its output read-only until it ends (Ctrl-C stops; \"buildstation logs -f %s\" only reads)\n", id, id)
	}
	restore := func() {}
	if inTTY {
		fmt.Fprintf(e.stderr, "attached to %s; press Ctrl-] to detach\n", id)
		if restore, err = e.rawTerminal(inFd); err != nil {
			return err
		}
		defer restore()
	}
	e.followSize(ctx, conn)
	return e.stream(ctx, conn, id, inTTY, restore)
}

// rawTerminal puts the terminal on fd in raw mode (and stdout in VT mode on
// Windows) and returns what undoes both, safe to call twice.
func (e *env) rawTerminal(fd int) (func(), error) {
	old, err := term.MakeRaw(fd)
	if err != nil {
		return nil, fmt.Errorf("put the terminal in raw mode: %v; attach from an interactive terminal", err)
	}
	restoreOut := enableVT(e.stdout)
	var once sync.Once
	return func() {
		once.Do(func() {
			restoreOut()
			_ = term.Restore(fd, old)
		})
	}, nil
}

// followSize sends the terminal's size now and whenever it changes.
func (e *env) followSize(ctx context.Context, conn *client.AttachConn) {
	sizeFd, ok := sizeSource(e.stdout, e.stdin)
	if !ok {
		return
	}
	sendSize := func() {
		if w, h, err := term.GetSize(sizeFd); err == nil && w > 0 && h > 0 {
			_ = conn.Resize(uint16(w), uint16(h))
		}
	}
	sendSize()
	go watchResize(ctx, sizeFd, sendSize)
}

// stream copies the session's output out and stdin in until the session
// ends, the user detaches or ctx ends.
func (e *env) stream(ctx context.Context, conn *client.AttachConn, id string, inTTY bool, restore func()) error {
	outDone := make(chan error, 1)
	go func() {
		_, err := io.Copy(e.stdout, conn)
		outDone <- err
	}()
	inDone := make(chan bool, 1) // true: the user detached
	go func() { inDone <- pumpInput(conn, e.stdin, inTTY) }()

	select {
	case <-outDone:
	case detached := <-inDone:
		if detached {
			restore()
			fmt.Fprintln(e.stderr, "detached")
			return nil
		}
		// Piped input ran out: keep showing the session until it ends.
		select {
		case <-outDone:
		case <-ctx.Done():
			return nil
		}
	case <-ctx.Done():
		return nil
	}
	restore()
	fmt.Fprintf(e.stderr, "session %s ended\n", id)
	return nil
}

// pumpInput types stdin into the session. On a terminal it stops at the
// detach key (true); otherwise at the end of input (false). A read still
// blocked on a terminal when the session ends is left behind: the process
// is about to exit.
func pumpInput(conn *client.AttachConn, in io.Reader, tty bool) bool {
	if !tty {
		_, _ = io.Copy(conn, in)
		return false
	}
	buf := make([]byte, 4096)
	for {
		n, err := in.Read(buf)
		if i := bytes.IndexByte(buf[:n], detachKey); i >= 0 {
			if i > 0 {
				_, _ = conn.Write(buf[:i])
			}
			return true
		}
		if n > 0 {
			if _, werr := conn.Write(buf[:n]); werr != nil {
				return false
			}
		}
		if err != nil {
			return false
		}
	}
}

// terminalFd reports whether r is a terminal, and its descriptor.
func terminalFd(r any) (int, bool) {
	f, ok := r.(*os.File)
	if !ok {
		return -1, false
	}
	fd := int(f.Fd())
	return fd, term.IsTerminal(fd)
}

// sizeSource picks the descriptor to read the window size from: stdout
// where it is a terminal (on Windows only the output handle knows the
// size), else stdin.
func sizeSource(stdout io.Writer, stdin io.Reader) (int, bool) {
	if fd, ok := terminalFd(stdout); ok {
		return fd, true
	}
	return terminalFd(stdin)
}
