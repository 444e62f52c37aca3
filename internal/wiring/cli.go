package wiring

import (
	"github.com/buildstation/buildstation/cli"
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
	}
}
