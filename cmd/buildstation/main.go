package main

import (
	"context"
	"fmt"
	"os"

	"github.com/buildstation/buildstation/cli"
	"github.com/buildstation/buildstation/internal/faces"
	"github.com/buildstation/buildstation/platform/agentcli"
	"github.com/buildstation/buildstation/platform/gitwt"
	"github.com/buildstation/buildstation/platform/guard"
	"github.com/buildstation/buildstation/platform/keychain"
	"github.com/buildstation/buildstation/platform/tmux"
)

func main() {
	growStack()
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
	// No signal handler for the whole run: Ctrl-C ends a listing or a
	// report as it would end ls, and os/signal costs every start two
	// threads (a tenth of the CLI's start; make bench's CLI figure). The
	// verbs that must undo something on a signal (session attach's raw
	// terminal) catch it themselves; the roles handed to the app have it.
	return cli.Run(context.Background(), cli.Deps{
		Roles: cli.Roles{
			Daemon: role("daemon"), Demo: role("demo"), Service: role("service"),
			Open: role("open"), FakeAgent: role("fake-agent"),
			// The app renders transcripts: this binary links no terminal
			// emulator (its tables cost every start; internal/screentext).
			Logs: role("logs"),
			// The app asks the releases API over HTTPS: this binary
			// links no net/http and no TLS (TestFrontLinksNoHTTPStack).
			Version: role("version"),
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

// growStack grows the main goroutine's stack once, to what a verb needs,
// while it holds two frames: left to grow by doubling from 2 KiB, it is
// copied five times in the deepest part of a verb (encoding/json's first
// use builds its decoders by reflection), and each copy walks every frame
// to move its pointers. Measured: 1.5 ms of a verb's ~18 ms of CPU
// (make bench's "CLI start, common verbs"), nothing on --version.
//
//go:noinline
func growStack() byte {
	var b [48 << 10]byte
	return lastByte(b[:])
}

//go:noinline
func lastByte(b []byte) byte { return b[len(b)-1] }
