package guard

import (
	"os/exec"
	"syscall"
)

// detach puts the guard in a process group of its own, so a console's
// Ctrl-C or Ctrl-Break for the station does not end it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr.CreationFlags |= syscall.CREATE_NEW_PROCESS_GROUP // and childproc's CREATE_NO_WINDOW
}
