//go:build cgo

package tray

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"strings"

	"github.com/buildstation/buildstation/app"
	apptray "github.com/buildstation/buildstation/app/tray"
	"github.com/buildstation/buildstation/platform/childproc"
	"github.com/buildstation/buildstation/platform/desktop"
	"github.com/buildstation/buildstation/platform/terminalwindow"
	"github.com/buildstation/buildstation/supervisor/client"
	"github.com/buildstation/buildstation/supervisor/config"
)

// childEnv marks the dashboard process the tray started: `buildstation
// dashboard` run by a person hands over to the tray instead.
const childEnv = "BUILDSTATION_DASHBOARD_CHILD"

// Dashboard is `buildstation dashboard [--focus SESSION-ID]`. Started by
// the tray (childEnv set) it is the dashboard process (app/tray's
// RunDashboard), taking what to show from its stdin and ending when its
// last window closes. Run by a person it is `buildstation open`: the
// tray, started if none runs, shows it, so a home has one dashboard.
func Dashboard(ctx context.Context, homeFlag string, args []string, e Edges) int {
	focus, code := dashboardArgs(args)
	if code != 0 {
		return code
	}
	if os.Getenv(childEnv) == "" {
		var open []string
		if focus != "" {
			open = []string{focus}
		}
		return Run(ctx, homeFlag, "open", open, e)
	}
	// Not for what this process starts (Terminal.app's attach on macOS).
	os.Unsetenv(childEnv)
	home, err := config.Home(homeFlag)
	if err != nil {
		return fail(err)
	}
	// stderr is the tray's log file.
	log := slog.New(slog.NewTextHandler(os.Stderr, nil)).With("process", "dashboard")
	apptray.RunDashboard(ctx, apptray.DashboardConfig{
		Log: log, Focus: focus, In: os.Stdin, Out: os.Stdout,
		Connect:      func(ctx context.Context, first bool) (app.Client, error) { return client.Dial(home) },
		Links:        func(show func(string)) { desktop.ReceiveLinks(log, show) },
		Activate:     desktop.Activate,
		OpenTerminal: openTerminal(home, log),
	})
	return 0
}

// dashboardArgs reads the dashboard's arguments: the session to focus,
// or "". code is non-zero, the message printed, when an argument is wrong.
func dashboardArgs(args []string) (focus string, code int) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case (a == "--focus" || a == "-focus") && i+1 < len(args):
			focus = args[i+1]
			i++
		case strings.HasPrefix(a, "--focus="):
			focus = strings.TrimPrefix(a, "--focus=")
		default:
			fmt.Fprintf(os.Stderr, "buildstation: unknown argument %q; usage: buildstation dashboard [--focus SESSION-ID]\n", a)
			return "", 2
		}
	}
	return focus, 0
}

// startDashboard starts the dashboard process (`buildstation dashboard`,
// childEnv set) for the tray of home, its stderr to the tray's log.
func startDashboard(self, home string) func() (*apptray.Process, error) {
	return func() (*apptray.Process, error) {
		cmd := childproc.Command(self, "--home", home, "dashboard")
		cmd.Env = append(os.Environ(), childEnv+"=1")
		logw, closeLog := logFile(home, "tray.log")
		cmd.Stderr = logw // Go copies it: the file may close once it started
		childAttrs(cmd)
		in, err := cmd.StdinPipe()
		if err != nil {
			closeLog()
			return nil, err
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			closeLog()
			return nil, err
		}
		if err := cmd.Start(); err != nil {
			closeLog()
			return nil, err
		}
		return &apptray.Process{
			Pid: cmd.Process.Pid, In: in, Out: out,
			Wait: func() error {
				defer closeLog()
				return cmd.Wait()
			},
			Kill: cmd.Process.Kill,
		}, nil
	}
}

// openTerminal opens a tmux-backed session in Terminal.app on macOS; on
// other systems it reports false and the dashboard shows its own console.
func openTerminal(home string, log *slog.Logger) func(string) bool {
	self, err := os.Executable()
	if err != nil || runtime.GOOS != "darwin" {
		return nil
	}
	return func(id string) bool {
		ok, err := terminalwindow.Open(self, home, id)
		if err != nil {
			log.Warn("open Terminal.app", "session", id, "err", err)
			return false
		}
		return ok
	}
}
