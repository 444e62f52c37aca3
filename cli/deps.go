package cli

import (
	"context"
	"io"

	"github.com/buildstation/buildstation/supervisor"
)

// Deps are what the command line needs of the OS edges and the board's
// store, which this package stays out of: main builds one and hands it to
// Run. A nil field answers that this build does not have it, in one
// sentence, when a command needs it.
type Deps struct {
	// Roles are the verbs main runs itself (daemon, demo, service, open,
	// fake-agent); their help, examples and completion live here.
	Roles Roles
	// TmuxAttach attaches a terminal (stdin, stdout, stderr) to session
	// id's own tmux window when the station in home runs it with the tmux
	// backend; found is false when that does not apply, and the session is
	// attached through the station's console API instead. It calls
	// attaching just before tmux takes the terminal (platform/tmux.Attach).
	// Nil, every session is attached through the API.
	TmuxAttach func(home, id string, stdin io.Reader, stdout, stderr io.Writer, attaching func()) (found bool, err error)
	// Boards is the board verbs' way to the board
	// (internal/wiring/boardcmd); nil, they say this build cannot open one.
	Boards BoardAccess
	// Agents finds the agent CLIs on this machine for `project add` when no
	// station runs (a running station checks with its own;
	// platform/agentcli). nil: the agent is not checked.
	Agents supervisor.AgentFinder
	// Setup suggests a new project's setup and .worktreeinclude when no
	// station runs (platform/gitwt.Advisor). nil: none is offered.
	Setup supervisor.SetupAdvisor
	// Keychain stores a source's token in the OS keychain
	// (platform/keychain). nil: `source login` says to use token_env.
	Keychain func(kind, host, token string) error
	// Render turns a transcript into the text its screen showed, for
	// logs (internal/screentext, in a cols × rows terminal). nil: logs
	// without --raw runs in the app (Roles.Logs), so the light command
	// line links no terminal emulator.
	Render func(w io.Writer, cols, rows int) Renderer
	// CheckVersion says on out whether a newer release than this build
	// exists (internal/update.Say: the releases API, over HTTPS). nil:
	// version --check runs in the app (Roles.Version), so the light
	// command line links no net/http and no TLS.
	CheckVersion func(ctx context.Context, out io.Writer) error
}

// Renderer plays a terminal's raw output and writes the lines a person
// read: each as it scrolls off, then at Finish the last screen.
type Renderer interface {
	Write(p []byte) error
	Finish() error
	Close()
}

// RoleFunc runs one of the binary's other roles with the --home given (""
// for the default) and the rest of the command line; it returns the exit
// code and says itself what went wrong.
type RoleFunc func(ctx context.Context, home string, args []string) int

// Roles are the verbs main runs itself: they need the OS edges (PTYs,
// tmux, the tray, the service manager) that this package stays out of. A
// nil role answers that this build does not have it.
type Roles struct {
	Daemon, Demo, Service, Open, FakeAgent RoleFunc
	// Logs prints a session's transcript rendered (logs without --raw) in
	// a build that renders (Deps.Render); the light command line hands it
	// to the app.
	Logs RoleFunc
	// Version runs version --check in a build that asks the releases API
	// (Deps.CheckVersion); the light command line hands it to the app.
	Version RoleFunc
}
