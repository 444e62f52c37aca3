package osdefaults

import (
	"os/exec"

	"github.com/buildstation/buildstation/supervisor/config"
)

// Config is this machine's defaults: tmux when it is on PATH.
func Config() config.Platform { return tmuxIfFound(exec.LookPath) }
