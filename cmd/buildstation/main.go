package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/buildstation/buildstation/cli"
	"github.com/buildstation/buildstation/internal/faces"
	"github.com/buildstation/buildstation/platform/agentcli"
	"github.com/buildstation/buildstation/platform/gitwt"
	"github.com/buildstation/buildstation/platform/guard"
	"github.com/buildstation/buildstation/platform/keychain"
	"github.com/buildstation/buildstation/platform/tmux"
)

func main() {
	cli.AttachParentConsole(os.Args[1:])
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	_, verb, rest := faces.SplitArgs(args)
	switch verb {
	case "", "--hidden", "dashboard", guard.Verb, "board":
		// The tray, its window, the fence guard and the board verbs
		// (which open SQLite or PostgreSQL themselves).
		return handOver(args)
	case tmux.PipeVerb: // run by the station's tmux server (pipe-pane)
		return tmux.HandOff(rest)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return cli.Run(ctx, cli.Deps{
		Roles: cli.Roles{
			Daemon: role("daemon"), Demo: role("demo"), Service: role("service"),
			Open: role("open"), FakeAgent: role("fake-agent"),
		},
		TmuxAttach: tmux.Attach,
		Agents:     agentcli.New(),
		Setup:      gitwt.Advisor{},
		Keychain:   keychain.Set,
	}, args, os.Stdin, os.Stdout, os.Stderr)
}

// role hands a role verb, parsed by the command line (its --home and
// --help), to the app.
func role(verb string) cli.RoleFunc {
	return func(_ context.Context, home string, args []string) int {
		line := []string{verb}
		if home != "" {
			line = []string{"--home", home, verb}
		}
		return handOver(append(line, args...))
	}
}

// handOver runs the app with args; on Unix it does not return unless the
// app cannot be run.
func handOver(args []string) int {
	self, err := os.Executable()
	if err == nil {
		var code int
		if code, err = faces.HandOver(self, args); err == nil {
			return code
		}
	}
	fmt.Fprintf(os.Stderr, "buildstation: %v\n", err)
	return 1
}
