package childproc

import (
	"os/exec"
	"syscall"

	"golang.org/x/sys/windows"
)

// Flags are the creation flags every child gets: CREATE_NO_WINDOW gives a
// console program a console without a window (its pipes still work), and
// is ignored for a GUI program.
const Flags = windows.CREATE_NO_WINDOW

// hide sets CREATE_NO_WINDOW. Not HideWindow: that starts a GUI child
// (Git Credential Manager's sign-in, the dashboard) hidden, where the user
// can never answer it.
func hide(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: Flags}
}
