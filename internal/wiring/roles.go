package wiring

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/buildstation/buildstation/internal/deeplink"
	"github.com/buildstation/buildstation/internal/faces"
	"github.com/buildstation/buildstation/internal/wiring/daemon"
	"github.com/buildstation/buildstation/internal/wiring/demo"
	"github.com/buildstation/buildstation/internal/wiring/tray"
	"github.com/buildstation/buildstation/platform/agentcli"
	"github.com/buildstation/buildstation/platform/gitwt"
	"github.com/buildstation/buildstation/platform/instance"
	"github.com/buildstation/buildstation/platform/pty"
	"github.com/buildstation/buildstation/supervisor/config"
	"github.com/buildstation/buildstation/supervisor/station"
)

func fail(err error) int {
	fmt.Fprintf(os.Stderr, "buildstation: %v\n", err)
	return 1
}

// StationLog logs to logs/station.log in the home, and to stderr too when
// toStderr (the daemon in a terminal; the demo keeps its screen for people).
func StationLog(home string, toStderr bool) (*slog.Logger, func()) {
	level := slog.LevelInfo
	if os.Getenv("BUILDSTATION_DEBUG") != "" {
		level = slog.LevelDebug
	}
	var handlers []slog.Handler
	closeFn := func() {}
	if err := os.MkdirAll(filepath.Join(home, config.DirLogs), 0o700); err == nil {
		if f, err := os.OpenFile(filepath.Join(home, config.DirLogs, "station.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600); err == nil {
			// The file first, in logfmt whatever the terminal.
			handlers = append(handlers, slog.NewTextHandler(f, &slog.HandlerOptions{Level: level}))
			closeFn = func() { f.Close() }
		}
	}
	if toStderr {
		// Best effort: a GUI-subsystem buildstationw.exe (the logon
		// task's) has no stderr, and a failed write there must not stop
		// the log.
		handlers = append(handlers, terminalHandler(bestEffort{os.Stderr}, isTerminal(os.Stderr), level))
	}
	return slog.New(slog.NewMultiHandler(handlers...)), closeFn
}

// bestEffort writes to w and ignores its errors.
type bestEffort struct{ w io.Writer }

func (b bestEffort) Write(p []byte) (int, error) {
	_, _ = b.w.Write(p)
	return len(p), nil
}

// Daemon is `buildstation daemon`: the station in this terminal. The CLI
// has taken --home out of args already; anything left is a mistake.
func Daemon(ctx context.Context, homeFlag string, args []string) int {
	if len(args) > 0 {
		fmt.Fprintf(os.Stderr, "buildstation: unknown argument %q; usage: buildstation daemon [--home DIR]\n", args[0])
		return 2
	}
	home, err := config.Home(homeFlag)
	if err != nil {
		return fail(err)
	}
	log, closeLog := StationLog(home, true)
	defer closeLog()
	opt := stationOptions(home, log)
	// The log says it too, but a person at the terminal reads this line.
	opt.Stopping = func(plan string) { fmt.Fprintln(os.Stderr, "buildstation: "+plan) }
	opt.Now = secondSignal()
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

// TrayEdges are what the tray role takes from this wiring.
var TrayEdges = tray.Edges{ServiceConfig: serviceConfig, StationOptions: stationOptions}

// stationOptions are the OS edges every station gets on this platform.
func stationOptions(home string, log *slog.Logger) daemon.Options {
	// Agents' hooks and PATH, and the demo's hints, name the command
	// line: the light front beside this app when it stands there.
	self, _ := os.Executable()
	return daemon.Options{
		Options: station.Options{
			Home: home, Spawner: pty.New(), Log: log, Self: faces.CLI(self),
			Notifier: logNotifier(log),
			Probers:  probers(),
			Agents:   agentcli.New(),
			Setup:    gitwt.Advisor{},
		},
		NewSpawners:   spawners,
		NewWorkspaces: workspaces,
		Desktop:       desktop(log),
	}
}

// Demo is `buildstation demo`: a fresh demo home with scripted agents, in
// the tray or, with --headless, narrated in this terminal.
func Demo(ctx context.Context, homeFlag string, args []string) int {
	headless, keep := false, false
	for _, a := range args {
		switch a {
		case "--headless", "-headless":
			headless = true
		case "--keep", "-keep":
			keep = true
		default:
			fmt.Fprintf(os.Stderr, "buildstation: unknown argument %q; usage: buildstation demo [--headless [--keep]]\n", a)
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
	log, closeLog := StationLog(home, false)
	defer closeLog()
	if !headless {
		return tray.Demo(ctx, home, log, TrayEdges)
	}
	if err := demo.Run(ctx, home, stationOptions(home, log), os.Stdout, keep); err != nil {
		return fail(err)
	}
	return 0
}

// Guard is the hidden fence-guard verb: what a station on a shared board
// starts beside itself (platform/guard), fed on stdin.
func Guard(ctx context.Context, home string, args []string) int {
	log, closeLog := StationLog(home, false)
	defer closeLog()
	if err := daemon.RunGuard(ctx, home, args, os.Stdin, log); err != nil {
		return fail(err)
	}
	return 0
}

// Open asks the running tray to show a session (or the dashboard). A
// notice's button hands it a link with a decision (a Windows toast's Allow
// once or Deny), which is made here instead (deeplink.OpenArgs, linkdecide.go).
func Open(ctx context.Context, home string, args []string) int {
	l, decide, bad := deeplink.OpenArgs(args)
	if bad {
		fmt.Fprintf(os.Stderr, "buildstation: %q is not a Build Station link; use buildstation://session/ID or buildstation://dashboard\n", args[0])
		return 2
	}
	if decide {
		if openLink(ctx, home, l, os.Stdout, os.Stderr) {
			return 0
		}
		args = []string{l.SessionID}
	}
	return tray.Run(ctx, home, "open", args, TrayEdges)
}
