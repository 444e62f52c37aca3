//go:build unix

package guard

import (
	"os/exec"
)

// detach puts the guard in a session of its own: a SIGSTOP (or Ctrl-Z, or
// Ctrl-C) sent to the station's process group does not reach it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr.Setsid = true
}
