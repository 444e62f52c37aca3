// Command buildstation supervises AI coding-agent sessions. One binary, several
// roles: the station (daemon), the tray, the CLI, and the agent side. This file
// is wiring only: it picks the role from the arguments and hands over.
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/buildstation/buildstation/cli"
	"github.com/buildstation/buildstation/internal/boardcmd"
	"github.com/buildstation/buildstation/internal/daemon"
	"github.com/buildstation/buildstation/internal/demo"
	"github.com/buildstation/buildstation/internal/tray"
	"github.com/buildstation/buildstation/platform/guard"
	"github.com/buildstation/buildstation/platform/instance"
	"github.com/buildstation/buildstation/platform/pty"
	"github.com/buildstation/buildstation/platform/tmux"
	"github.com/buildstation/buildstation/supervisor/config"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	home, verb, rest := splitArgs(args)
	if verb == "" || verb == "--hidden" {
		return tray.Run(ctx, home, verb, rest, trayEdges)
	}
	if verb == "dashboard" { // the tray's window process (internal/tray)
		return tray.Dashboard(ctx, home, rest, trayEdges)
	}
	if verb == guard.Verb {
		// Hidden: what a station on a shared board starts beside itself.
		log, closeLog := stationLog(home, false)
		defer closeLog()
		if err := daemon.RunGuard(ctx, home, rest, os.Stdin, log); err != nil {
			return fail(err)
		}
		return 0
	}
	// Every other verb goes through the command line, which owns help,
	// completion and flags; the roles that need the OS edges come back here.
	cli.Roles.Daemon = runDaemon
	cli.Roles.Demo = runDemo
	cli.Roles.Service = runService
	cli.Roles.Open = func(ctx context.Context, home string, args []string) int {
		return tray.Run(ctx, home, "open", args, trayEdges)
	}
	cli.Roles.FakeAgent = func(ctx context.Context, _ string, args []string) int { return runFakeAgent(ctx, args) }
	cli.TmuxAttach = tmux.Attach
	cli.Boards = boardcmd.Boards{}
	return cli.Run(ctx, args, os.Stdin, os.Stdout, os.Stderr)
}

// splitArgs finds the role's verb, skipping a leading --home flag (which the
// CLI also accepts after the verb).
func splitArgs(args []string) (home, verb string, rest []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--home" || a == "-home":
			if i+1 < len(args) {
				home = args[i+1]
				i++
			}
		case len(a) > 7 && (a[:7] == "--home=" || a[:6] == "-home="):
			home = a[len("--home="):]
			if a[1] != '-' {
				home = a[len("-home="):]
			}
		default:
			return home, a, args[i+1:]
		}
	}
	return home, "", nil
}

func fail(err error) int {
	fmt.Fprintf(os.Stderr, "buildstation: %v\n", err)
	return 1
}

// stationLog logs to logs/station.log in the home, and to stderr too when
// toStderr (the daemon in a terminal; the demo keeps its screen for people).
func stationLog(home string, toStderr bool) (*slog.Logger, func()) {
	var w io.Writer = io.Discard
	if toStderr {
		w = os.Stderr
	}
	closeFn := func() {}
	if err := os.MkdirAll(filepath.Join(home, config.DirLogs), 0o700); err == nil {
		if f, err := os.OpenFile(filepath.Join(home, config.DirLogs, "station.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600); err == nil {
			// The file first, stderr best effort: a GUI-subsystem
			// buildstationw.exe (the logon task's) has no stderr, and a
			// failed write there must not stop the log.
			w = io.MultiWriter(f, bestEffort{w})
			closeFn = func() { f.Close() }
		}
	}
	level := slog.LevelInfo
	if os.Getenv("BUILDSTATION_DEBUG") != "" {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})), closeFn
}

// bestEffort writes to w and ignores its errors.
type bestEffort struct{ w io.Writer }

func (b bestEffort) Write(p []byte) (int, error) {
	_, _ = b.w.Write(p)
	return len(p), nil
}

func runDaemon(ctx context.Context, homeFlag string, args []string) int {
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "--home", "-home":
			if i+1 >= len(args) {
				fmt.Fprintln(os.Stderr, "buildstation: --home needs a folder; usage: buildstation daemon [--home DIR]")
				return 2
			}
			homeFlag = args[i+1]
			i++
		default:
			fmt.Fprintf(os.Stderr, "buildstation: unknown argument %q; usage: buildstation daemon [--home DIR]\n", args[i])
			return 2
		}
	}
	home, err := config.Home(homeFlag)
	if err != nil {
		return fail(err)
	}
	log, closeLog := stationLog(home, true)
	defer closeLog()
	opt := stationOptions(home, log)
	// The log says it too, but a person at the terminal reads this line.
	opt.Stopping = func(plan string) { fmt.Fprintln(os.Stderr, "buildstation: "+plan) }
	if err := daemon.Run(ctx, opt); err != nil {
		if instance.IsOwned(err) {
			// Exit 0: launchd's KeepAlive, systemd's Restart=on-failure
			// and the logon task restart a station that failed, and this
			// one did its job (the home has a station).
			fmt.Fprintf(os.Stderr, "buildstation: %v; this one exits\n", err)
			return 0
		}
		return fail(err)
	}
	return 0
}

// hasTray: this build has the tray (service install writes its login item).
const hasTray = tray.Available

// trayEdges are what the tray role takes from this wiring.
var trayEdges = tray.Edges{ServiceConfig: serviceConfig, StationOptions: stationOptions}

// stationOptions are the OS edges every station gets on this platform.
func stationOptions(home string, log *slog.Logger) daemon.Options {
	self, _ := os.Executable()
	return daemon.Options{
		Home: home, Spawner: pty.New(), Spawners: spawners, Log: log, Self: self,
		Notifier:   notifier(log),
		Desktop:    desktop(log),
		Probers:    probers(),
		Workspaces: workspaces,
	}
}

func runDemo(ctx context.Context, homeFlag string, args []string) int {
	headless := false
	for _, a := range args {
		switch a {
		case "--headless", "-headless":
			headless = true
		default:
			fmt.Fprintf(os.Stderr, "buildstation: unknown argument %q; usage: buildstation demo [--headless]\n", a)
			return 2
		}
	}
	self, err := os.Executable()
	if err != nil {
		return fail(fmt.Errorf("find this program's path for the demo agents: %w", err))
	}
	home, err := demo.Prepare(homeFlag, self)
	if err != nil {
		return fail(err)
	}
	log, closeLog := stationLog(home, false)
	defer closeLog()
	if !headless {
		return tray.Demo(ctx, home, log, trayEdges)
	}
	if err := demo.Run(ctx, home, stationOptions(home, log), os.Stdout); err != nil {
		return fail(err)
	}
	return 0
}
