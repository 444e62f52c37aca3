//go:build !windows

package gitwt

import (
	"context"
	"os/exec"
	"syscall"

	"github.com/buildstation/buildstation/platform/childproc"
)

// gateCommand runs gate with sh in its own process group, so a timeout kills
// everything the gate started (make, the test binaries), not just sh.
func gateCommand(ctx context.Context, gate string) *exec.Cmd {
	cmd := childproc.CommandContext(ctx, "sh", "-c", gate)
	cmd.SysProcAttr.Setpgid = true
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	return cmd
}

// killGroup ends whatever the gate left running in its process group.
func killGroup(cmd *exec.Cmd) {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // ESRCH: nothing left
}
