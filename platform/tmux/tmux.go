package tmux

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/buildstation/buildstation/platform/pty"
	"github.com/buildstation/buildstation/supervisor"
)

// SocketName is the station's tmux socket inside its home. The CLI finds
// the server there to attach to a session's window.
const SocketName = "tmux.sock"

// PipeVerb is the hidden command that hands a pane's output pipe to the
// station (see HandOff): buildstation tmux-pipe SOCKET. main serves it.
const PipeVerb = "tmux-pipe"

// SessionName is the tmux session that holds every agent window.
const SessionName = "buildstation"

// Default window size when a SpawnSpec leaves it zero: package pty's, wide
// enough that an agent's TUI does not wrap its status line.
const (
	DefaultCols = pty.DefaultCols
	DefaultRows = pty.DefaultRows
)

// Timing. waitCheck is how often the monitor scans every pane at once where
// tmux has no control-mode subscriptions (before 3.2), and the pause before
// it starts a control client again after one ended.
// readyTimeout bounds the wait for pipe-pane's pipe to be handed over.
const (
	defaultWaitCheck = 2 * time.Second
	readyTimeout     = 10 * time.Second
)

// Spawner starts agents in windows of one tmux server. It is safe for
// concurrent use.
type Spawner struct {
	sock string // the server's socket path
	// WaitCheck is the monitor's fallback interval (see defaultWaitCheck);
	// tests shorten it.
	WaitCheck time.Duration
	// Helper is the program pipe-pane runs to hand each pane's output
	// pipe to the station: one that serves PipeVerb. Empty is this
	// program (os.Executable), which main makes serve it.
	Helper string

	mon       monitor      // learns of every window's exit (see monitor)
	noControl bool         // tests: the monitor scans as on a tmux before 3.2
	execs     atomic.Int64 // tmux processes run for commands (see do), for tests

	mu sync.Mutex // serializes starting the server and its session

	dirMu sync.Mutex
	dirs  map[string]bool // run folders of this spawner's live Procs
	swept bool            // leftovers of an earlier station removed
}

// New returns a spawner on the tmux server at socketPath (started on first
// use). Two spawners on the same path share the server: that is how a
// restarted station finds its sessions again.
func New(socketPath string) *Spawner {
	s := &Spawner{sock: socketPath, WaitCheck: defaultWaitCheck}
	s.mon.sp = s
	return s
}

var _ supervisor.Adopter = (*Spawner)(nil)

// Socket is the path of the server's socket.
func (s *Spawner) Socket() string { return s.sock }

// runDir is where the spawner keeps each window's launch script and the
// socket its output pipe is handed over on:
// next to the socket, private to the user.
func (s *Spawner) runDir() string { return s.sock + ".d" }

// SignalError is the error Wait returns (with code -1) when a signal ended
// the agent, so a caller can tell a kill from a crash.
type SignalError struct {
	Signal int
}

func (e *SignalError) Error() string { return fmt.Sprintf("agent killed by signal %d", e.Signal) }

// ErrDetached is Wait's error when the Proc was closed while its agent
// still ran: the window lives on for a later Adopt.
var ErrDetached = errors.New("tmux window left running: the session was detached, not ended")

// handle is what Adopt takes: the window id, which tmux never reuses while
// its server lives, and the window's name (the session id), which guards
// against a restarted server that numbered a new window the same.
func makeHandle(windowID, name string) string { return windowID + "/" + name }

func parseHandle(h string) (windowID, name string, ok bool) {
	windowID, name, ok = strings.Cut(h, "/")
	if !ok || !strings.HasPrefix(windowID, "@") || name == "" {
		return "", "", false
	}
	return windowID, name, true
}

// use records that a Proc holds (or let go of) a run folder.
func (s *Spawner) use(dir string, on bool) {
	s.dirMu.Lock()
	defer s.dirMu.Unlock()
	if s.dirs == nil {
		s.dirs = map[string]bool{}
	}
	if on {
		s.dirs[dir] = true
	} else {
		delete(s.dirs, dir)
	}
}

// sweep removes, once per spawner, the run folders a station that died
// left behind (a kill -9 closes no Proc). Folders of this spawner's own
// Procs are kept.
func (s *Spawner) sweep() {
	s.dirMu.Lock()
	defer s.dirMu.Unlock()
	if s.swept {
		return
	}
	s.swept = true
	entries, err := os.ReadDir(s.runDir())
	if err != nil {
		return
	}
	for _, e := range entries {
		dir := filepath.Join(s.runDir(), e.Name())
		if !s.dirs[dir] {
			_ = os.RemoveAll(dir)
		}
	}
}
