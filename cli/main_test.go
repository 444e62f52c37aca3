package cli_test

import (
	"github.com/buildstation/buildstation/cli"
	"github.com/buildstation/buildstation/internal/wiring/boardcmd"
	"github.com/buildstation/buildstation/platform/tmux"
)

// wired is the command line's Deps as main builds them, less the roles:
// the board verbs reach the board through internal/wiring/boardcmd, and
// session attach finds tmux sessions through platform/tmux, so these tests
// run what the binary runs. A test that wants another copies it.
var wired = cli.Deps{Boards: boardcmd.Boards{}, TmuxAttach: tmux.Attach}
