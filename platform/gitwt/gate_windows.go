package gitwt

import (
	"context"
	"os"
	"os/exec"

	"github.com/buildstation/buildstation/platform/childproc"
)

// gateCommand runs gate with cmd.exe. The command line is passed verbatim
// (/s strips the outer quotes) because Go's argv quoting is not the quoting
// cmd.exe parses, and a gate is written the way the user types it.
func gateCommand(ctx context.Context, gate string) *exec.Cmd {
	shell := os.Getenv("ComSpec")
	if shell == "" {
		shell = "cmd.exe"
	}
	cmd := childproc.CommandContext(ctx, shell)
	cmd.SysProcAttr.CmdLine = `cmd /d /s /c "` + gate + `"` // keeps CREATE_NO_WINDOW
	return cmd
}

// killGroup is a no-op on Windows: CommandContext kills the shell on a
// timeout and WaitDelay stops us waiting on anything it left behind.
func killGroup(*exec.Cmd) {}
