//go:build cgo

package tray

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"sync/atomic"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"

	"github.com/buildstation/buildstation/app"
	apptray "github.com/buildstation/buildstation/app/tray"
	"github.com/buildstation/buildstation/assets"
	"github.com/buildstation/buildstation/platform/terminalwindow"
	"github.com/buildstation/buildstation/supervisor/client"
	"github.com/buildstation/buildstation/supervisor/config"
)

// Dashboard is `buildstation dashboard [--focus SESSION-ID]`. Started by
// the tray (childEnv set) it is the dashboard process: the Fyne app with
// the dashboard and the consoles, taking what to show from its stdin
// (dashproc.go) and ending when its last window closes. Run by a person it
// is `buildstation open`: the tray, started if none runs, shows it, so a
// home has one dashboard.
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
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	a := fyneapp.NewWithID(apptray.AppID)
	a.SetIcon(assets.Icon)
	var closing atomic.Bool // set on Fyne's goroutine as the last window closes
	ui := app.New(app.Options{
		App: a, Log: log, Title: "Build Station", OpenTerminal: openTerminal(home, log),
		// The tray starts the station: this process only dials it
		// (the connection redials while it is away).
		Connect: func(ctx context.Context, first bool) (app.Client, error) { return client.Dial(home) },
		LastWindowClosed: func() {
			closing.Store(true)
			a.Quit()
		},
	})
	a.Lifecycle().SetOnStarted(func() { startDashboard(ctx, a, ui, log, focus, &closing) })
	go func() {
		<-ctx.Done()
		fyne.Do(a.Quit)
	}()
	a.Run()
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

// startDashboard runs once Fyne has started: links open windows, the UI
// connects, the focused session opens, and the tray's requests are shown
// until the tray closes the pipe, which quits this process. closing is
// set as the last window closes: a request that arrives then is refused,
// and the tray starts another process for it.
func startDashboard(ctx context.Context, a fyne.App, ui *app.UI, log *slog.Logger, focus string, closing *atomic.Bool) {
	receiveURLs(log, func(id string) {
		fyne.Do(func() {
			if id != "" {
				ui.OpenSession(id)
			} else {
				ui.ShowDashboard()
			}
		})
	})
	ui.Start(ctx, true)
	if focus != "" {
		ui.OpenSession(focus)
	}
	go func() {
		takeRequests(os.Stdin, os.Stdout, log, func(r apptray.Request) bool {
			took := make(chan bool, 1)
			fyne.Do(func() {
				if closing.Load() {
					took <- false
					return
				}
				showRequest(ui, r)
				took <- true
			})
			return <-took
		})
		// The tray quit (or closed the pipe): so does this process.
		fyne.Do(a.Quit)
	}()
}

// takeRequests reads requests from in until it ends, hands each to show,
// and answers "ok" on out for each one show took. A request show refuses
// (the process is closing) ends the reading: the tray starts another
// process for it.
func takeRequests(in io.Reader, out io.Writer, log *slog.Logger, show func(apptray.Request) bool) {
	s := bufio.NewScanner(in)
	for s.Scan() {
		var r apptray.Request
		if err := json.Unmarshal(s.Bytes(), &r); err != nil {
			log.Warn("a request the dashboard cannot read", "line", s.Text(), "err", err)
			fmt.Fprintln(out, "ok") // answered: retrying would not help
			continue
		}
		if !show(r) {
			return
		}
		log.Info("shown", "do", r.Do, "id", r.ID)
		fmt.Fprintln(out, "ok")
	}
}

// showRequest shows what the tray asked for (on Fyne's goroutine).
func showRequest(ui *app.UI, r apptray.Request) {
	switch r.Do {
	case apptray.DoSession:
		ui.OpenSession(r.ID)
	case apptray.DoConsole:
		ui.Do(app.MenuLine{Action: app.ActConsole, ID: r.ID})
	case apptray.DoAddTask:
		ui.Do(app.MenuLine{Action: app.ActAddTask})
	case apptray.DoSettings:
		ui.Do(app.MenuLine{Action: app.ActSettings})
	case apptray.DoAddProject:
		ui.Do(app.MenuLine{Action: app.ActAddProject})
	case apptray.DoError:
		ui.ShowError(errors.New(r.Text))
	case apptray.DoPreview:
		ui.ShowTrayPreview()
	default:
		ui.ShowDashboard()
	}
	activate()
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
