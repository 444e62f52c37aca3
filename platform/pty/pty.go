package pty

import (
	"fmt"
	"os"

	"github.com/buildstation/buildstation/supervisor"
)

// Default terminal size when a SpawnSpec leaves it zero: wide enough that an
// agent's TUI does not wrap its status line.
const (
	DefaultCols = 120
	DefaultRows = 40
)

// Spawner starts agents in a pseudo-terminal. The zero value is ready.
type Spawner struct{}

// New returns the platform's pseudo-terminal spawner.
func New() supervisor.Spawner { return Spawner{} }

var _ supervisor.Spawner = Spawner{}

// SignalError is the error Wait returns (with code -1) when a signal ended
// the agent, so a caller can tell a kill from a crash.
type SignalError struct {
	Signal os.Signal
}

func (e *SignalError) Error() string { return "agent killed by signal: " + e.Signal.String() }

// Size applies the defaults to a zero width or height; package tmux sizes
// its windows by it too.
func Size(cols, rows uint16) (uint16, uint16) {
	if cols == 0 {
		cols = DefaultCols
	}
	if rows == 0 {
		rows = DefaultRows
	}
	return cols, rows
}

// CheckDir reports a missing or non-directory working directory by name.
// Without it the OS reports a failed chdir as if the command itself were
// missing ("fork/exec /usr/bin/claude: no such file or directory"). Package
// tmux checks its agents' folders with it too.
func CheckDir(dir string) error {
	if dir == "" {
		return nil
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("start agent: working directory: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("start agent: working directory %s is not a directory", dir)
	}
	return nil
}
