package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/buildstation/buildstation/cli"
	"github.com/buildstation/buildstation/internal/faces"
	"github.com/buildstation/buildstation/internal/wiring"
	"github.com/buildstation/buildstation/internal/wiring/tray"
	"github.com/buildstation/buildstation/platform/guard"
	"github.com/buildstation/buildstation/platform/tmux"
)

func main() {
	// The Windows GUI face prints --version and help in the console it
	// was typed in (a no-op elsewhere).
	cli.AttachParentConsole(os.Args[1:])
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	home, verb, rest := faces.SplitArgs(args)
	switch verb {
	case "", "--hidden": // the tray (internal/wiring/tray)
		return tray.Run(ctx, home, verb, rest, wiring.TrayEdges)
	case "dashboard": // the tray's window process
		return tray.Dashboard(ctx, home, rest, wiring.TrayEdges)
	case guard.Verb: // hidden: beside a station on a shared board
		return wiring.Guard(ctx, home, rest)
	case tmux.PipeVerb: // hidden: run by the station's tmux server (pipe-pane)
		return tmux.HandOff(rest)
	}
	// Every other verb goes through the command line, which owns help,
	// completion and flags; the roles that need the OS edges come back here
	// through the one Deps it is handed.
	return cli.Run(ctx, wiring.CLI(), args, os.Stdin, os.Stdout, os.Stderr)
}
