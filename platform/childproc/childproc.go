package childproc

import (
	"context"
	"os/exec"
)

// Command is exec.Command for a child with no window of its own (see the
// package doc). Its SysProcAttr is never nil: a caller that needs more of
// it (a process group, a verbatim command line) sets those fields on it
// and keeps the ones set here.
func Command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	hide(cmd)
	return cmd
}

// CommandContext is exec.CommandContext for a child with no window of its
// own, as Command.
func CommandContext(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	hide(cmd)
	return cmd
}
