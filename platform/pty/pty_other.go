//go:build !unix && !windows

package pty

import (
	"errors"

	"github.com/buildstation/buildstation/supervisor"
)

// Spawn is unsupported where there is neither a unix pty nor ConPTY.
func (Spawner) Spawn(supervisor.SpawnSpec) (supervisor.Proc, error) {
	return nil, errors.New("start agent: pseudo-terminals are not supported on this OS")
}
