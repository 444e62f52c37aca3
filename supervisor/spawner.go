package supervisor

import (
	"io"
	"time"
)

// Spawner starts an agent command in a pseudo-terminal. platform/pty
// implements it with creack/pty on unix and ConPTY on Windows; tests use the
// same real implementation with a scripted fake agent.
type Spawner interface {
	Spawn(spec SpawnSpec) (Proc, error)
}

// PasteDropper is a Spawner whose terminal does not carry a bracketed
// paste whole: Windows' inbox ConPTY drops the ESC[200~ and ESC[201~
// markers from its input, so a pasted prompt arrives as keystrokes and
// each of its line breaks submits a message of its own. A profile's
// one-line form of its prompt (agent.Launch.TypeLine) is typed there
// instead.
type PasteDropper interface {
	DropsPastes() bool
}

// SpawnSpec is everything needed to start one session's process.
type SpawnSpec struct {
	Argv []string // Argv[0] is looked up on PATH
	Dir  string
	Env  []string // full environment, KEY=VALUE
	Cols uint16
	Rows uint16
	// Marker is an Env entry ("KEY=VALUE") unique to this session on the
	// machine (its random token, not its id: ids repeat across homes). Every
	// process the agent starts inherits it, so Stop can find and end even
	// those that left the tree (a setsid grandchild whose parent died).
	Marker string
}

// Proc is a running session process and its terminal.
//
// Read returns the terminal's output and an error once the process has exited
// and its output is drained. Write types into the terminal.
type Proc interface {
	io.Reader
	io.Writer
	Pid() int
	Resize(cols, rows uint16) error
	// Wait blocks until the process exits and returns its exit code (-1 when
	// it was killed by a signal).
	Wait() (code int, err error)
	// Stop ends the whole process tree: a polite signal to the process
	// group, up to grace for it to exit, then a kill of every process left.
	// It returns when the tree is gone or the kill was sent.
	Stop(grace time.Duration) error
	// Close releases the terminal. Call it after Wait.
	Close() error
}

// Adopter is a Spawner whose sessions outlive the station (tmux): after a
// restart it can reattach to a session it started, by the handle it gave.
type Adopter interface {
	Spawner
	// Adopt reattaches to a live session; ok is false when it is gone.
	Adopt(handle string) (p Proc, ok bool, err error)
}

// Handled is a Proc that can be found again after a restart; Handle is what
// Adopt takes (a tmux window id, say).
type Handled interface {
	Handle() string
}
