//go:build !unix

package tmux

import (
	"errors"
	"io"

	"github.com/buildstation/buildstation/supervisor"
)

var errUnsupported = errors.New("the tmux backend is not available on this OS; set backend = \"pty\" in config.toml")

// Spawn is unsupported where tmux does not run.
func (s *Spawner) Spawn(supervisor.SpawnSpec) (supervisor.Proc, error) {
	return nil, errUnsupported
}

// Adopt is unsupported where tmux does not run.
func (s *Spawner) Adopt(string) (supervisor.Proc, bool, error) {
	return nil, false, errUnsupported
}

// Available reports whether this machine can run the tmux backend.
func Available() bool { return false }

// monitor has nothing to watch where tmux does not run; the field keeps
// Spawner one type on every OS.
type monitor struct{ sp *Spawner }

// KillWindow has no window to remove where tmux does not run.
func (s *Spawner) KillWindow(string) error { return nil }

// Attach finds no tmux session where tmux does not run: the caller uses
// the station's console API.
func Attach(_, _ string, _ io.Reader, _, _ io.Writer, _ func()) (found bool, err error) {
	return false, nil
}

// Windows lists no window where tmux does not run.
func (s *Spawner) Windows() ([]string, error) { return nil, nil }

// HandOff has no pipe to hand over where tmux does not run.
func HandOff([]string) int { return 2 }
