package cli_test

import (
	"os"
	"testing"

	"github.com/buildstation/buildstation/cli"
	"github.com/buildstation/buildstation/internal/wiring/boardcmd"
	"github.com/buildstation/buildstation/platform/tmux"
)

// TestMain wires the command line as main does: the board verbs reach the
// board through internal/wiring/boardcmd, and session attach finds tmux sessions
// through platform/tmux, so these tests run what the binary runs.
func TestMain(m *testing.M) {
	cli.Boards = boardcmd.Boards{}
	cli.TmuxAttach = tmux.Attach
	os.Exit(m.Run())
}
