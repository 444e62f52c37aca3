//go:build unix

package tmux

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// HandOff is PipeVerb's body, run by pipe-pane (with sh, in the tmux
// server) as `buildstation tmux-pipe SOCKET`: it sends its standard input,
// tmux's end of the pane's output pipe, to the station listening on the
// unix socket SOCKET, and exits. From then on the station reads the pane's
// output straight from tmux, with no process copying it between them.
//
// tmux does not wait for pipe-pane's command: the pipe lives while some
// process holds its other end, here the station alone.
func HandOff(args []string) int {
	if len(args) != 1 {
		fmt.Fprintf(os.Stderr, "usage: buildstation %s SOCKET (run by the station's tmux server)\n", PipeVerb)
		return 2
	}
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: args[0], Net: "unix"})
	if err != nil {
		fmt.Fprintf(os.Stderr, "hand the pane's output to the station: %v\n", err)
		return 1
	}
	defer c.Close()
	if _, _, err := c.WriteMsgUnix([]byte{'p'}, syscall.UnixRights(0), nil); err != nil {
		fmt.Fprintf(os.Stderr, "hand the pane's output to the station: %v\n", err)
		return 1
	}
	return 0
}

// maxSocketPath is the longest unix socket path every unix takes (macOS:
// 104 bytes with the terminating NUL).
const maxSocketPath = 100

// pipeListener is where one Spawn or Adopt waits for the pane's output
// pipe that HandOff sends. It sits in the window's private run folder, or,
// when that path is too long for a unix socket, in a private temporary
// folder of its own; either way only this user can connect.
type pipeListener struct {
	l   *net.UnixListener
	tmp string // the temporary folder to remove, if one was made
}

func listenPipe(dir string) (*pipeListener, error) {
	path, tmp := filepath.Join(dir, "pipe.sock"), ""
	if len(path) > maxSocketPath {
		var err error
		if tmp, err = os.MkdirTemp("", "bs-pipe-"); err != nil {
			return nil, fmt.Errorf("make output pipe's socket folder: %w", err)
		}
		path = filepath.Join(tmp, "p")
	}
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		if tmp != "" {
			os.RemoveAll(tmp)
		}
		return nil, fmt.Errorf("listen for the output pipe: %w", err)
	}
	return &pipeListener{l: l, tmp: tmp}, nil
}

// path is the socket HandOff dials.
func (pl *pipeListener) path() string { return pl.l.Addr().String() }

// close stops listening and removes the socket.
func (pl *pipeListener) close() {
	_ = pl.l.Close() // removes the socket file too
	if pl.tmp != "" {
		os.RemoveAll(pl.tmp)
	}
}

// accept waits, until ctx ends, for HandOff to send the pipe and returns
// its end, ready for the runtime poller: a Read parks without a thread and
// Close ends it.
func (pl *pipeListener) accept(ctx context.Context) (*os.File, error) {
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(readyTimeout)
	}
	_ = pl.l.SetDeadline(deadline)
	c, err := pl.l.AcceptUnix()
	if err != nil {
		return nil, fmt.Errorf("output pipe did not attach: %w", err)
	}
	defer c.Close()
	_ = c.SetReadDeadline(deadline)
	oob := make([]byte, syscall.CmsgSpace(4))
	_, oobn, _, _, err := c.ReadMsgUnix(make([]byte, 1), oob)
	if err != nil {
		return nil, fmt.Errorf("output pipe did not attach: %w", err)
	}
	msgs, err := syscall.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		return nil, errors.New("output pipe did not attach: no pipe came with the message")
	}
	fds, err := syscall.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 1 {
		for _, fd := range fds {
			syscall.Close(fd)
		}
		return nil, errors.New("output pipe did not attach: no pipe came with the message")
	}
	syscall.CloseOnExec(fds[0])
	if err := syscall.SetNonblock(fds[0], true); err != nil {
		syscall.Close(fds[0])
		return nil, fmt.Errorf("output pipe: %w", err)
	}
	return os.NewFile(uintptr(fds[0]), "tmux pane output"), nil
}

// helper is the program pipe-pane runs to hand the pipe over: this one
// (buildstation, or a test binary whose TestMain serves PipeVerb).
func (s *Spawner) helper() (string, error) {
	if s.Helper != "" {
		return s.Helper, nil
	}
	self, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find this program for tmux's output pipe: %w", err)
	}
	return self, nil
}

// pipeCommand is what pipe-pane runs (with sh, in the server): the helper,
// which hands the pipe to the listener at sock.
func pipeCommand(helper, sock string) string {
	return "exec " + quote(helper) + " " + PipeVerb + " " + quote(sock)
}
