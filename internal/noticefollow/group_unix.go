//go:build unix

package noticefollow

import (
	"os/exec"
	"syscall"
)

// ownGroup runs a hook in a process group of its own, and a timeout kills
// the whole group: a shell-script hook's children (curl, sleep) go with it.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr.Setpgid = true
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
