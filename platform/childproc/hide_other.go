//go:build !windows

package childproc

import (
	"os/exec"
	"syscall"
)

// Flags is 0 off Windows: a child there has no window to hide.
const Flags = 0

// hide gives cmd an empty SysProcAttr, so callers amend it on every OS.
func hide(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{} }
