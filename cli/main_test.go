package cli_test

import (
	"io"

	"github.com/buildstation/buildstation/cli"
	"github.com/buildstation/buildstation/internal/screentext"
	"github.com/buildstation/buildstation/internal/wiring/boardcmd"
	"github.com/buildstation/buildstation/platform/tmux"
)

// wired is the command line's Deps as main builds them, less the roles:
// the board verbs reach the board through internal/wiring/boardcmd,
// session attach finds tmux sessions through platform/tmux and logs
// renders through internal/screentext, so these tests
// run what the binary runs. A test that wants another copies it.
var wired = cli.Deps{Boards: boardcmd.Boards{}, TmuxAttach: tmux.Attach, Render: render}

// render is logs' renderer as the app wires it (internal/wiring.Render).
func render(w io.Writer, cols, rows int) cli.Renderer { return screentext.New(w, cols, rows) }
