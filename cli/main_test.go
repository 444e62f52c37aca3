package cli_test

import (
	"context"
	"io"

	"github.com/buildstation/buildstation/cli"
	"github.com/buildstation/buildstation/internal/screentext"
	upd "github.com/buildstation/buildstation/internal/update"
	"github.com/buildstation/buildstation/internal/wiring/boardcmd"
	"github.com/buildstation/buildstation/platform/tmux"
)

// wired is the command line's Deps as main builds them, less the roles:
// the board verbs reach the board through internal/wiring/boardcmd,
// session attach finds tmux sessions through platform/tmux and logs
// renders through internal/screentext, so these tests
// run what the binary runs. A test that wants another copies it.
var wired = cli.Deps{Boards: boardcmd.Boards{}, TmuxAttach: tmux.Attach, Render: render, CheckVersion: checkVersion}

// checkVersion is version --check as the app wires it (internal/wiring).
func checkVersion(ctx context.Context, out io.Writer) error { return upd.Say(ctx, cli.Version, out) }

// render is logs' renderer as the app wires it (internal/wiring.Render).
func render(w io.Writer, cols, rows int) cli.Renderer { return screentext.New(w, cols, rows) }
