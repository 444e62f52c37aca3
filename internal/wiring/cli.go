package wiring

import (
	"context"
	"io"

	"github.com/buildstation/buildstation/cli"
	"github.com/buildstation/buildstation/internal/screentext"
	"github.com/buildstation/buildstation/internal/update"
	"github.com/buildstation/buildstation/internal/wiring/boardcmd"
	"github.com/buildstation/buildstation/platform/agentcli"
	"github.com/buildstation/buildstation/platform/gitwt"
	"github.com/buildstation/buildstation/platform/keychain"
	"github.com/buildstation/buildstation/platform/tmux"
)

// CLI is the one Deps the command line runs with: the roles of this
// package and the OS edges the CLI itself stays out of. main hands it to
// cli.Run; nothing sets a package variable of cli.
func CLI() cli.Deps {
	return cli.Deps{
		Roles: cli.Roles{
			Daemon: Daemon, Demo: Demo, Service: Service, Open: Open, FakeAgent: FakeAgent,
		},
		TmuxAttach: tmux.Attach,
		Boards:     boardcmd.Boards{},
		Agents:     agentcli.New(),
		Setup:      gitwt.Advisor{},
		Keychain:   keychain.Set,
		Render:     Render,
		CheckVersion: func(ctx context.Context, out io.Writer) error {
			return update.Say(ctx, cli.Version, out)
		},
	}
}

// Render is logs' renderer: the transcript through a VT emulator.
func Render(w io.Writer, cols, rows int) cli.Renderer { return screentext.New(w, cols, rows) }
