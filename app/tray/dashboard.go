//go:build cgo

package tray

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync/atomic"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"

	"github.com/buildstation/buildstation/app"
	"github.com/buildstation/buildstation/assets"
)

// DashboardConfig is what the wiring hands the dashboard process: how it
// reaches the station, the session to show first, the tray's pipe, and
// the OS's pieces, each injected (a nil piece is left out).
type DashboardConfig struct {
	Log *slog.Logger
	// Connect dials the station: the tray starts it, this process only
	// dials it (the connection redials while it is away).
	Connect app.Connect
	// Focus is the session to open first ("" for none).
	Focus string
	// In carries the tray's requests, Out the answers (dashproc.go).
	In  io.Reader
	Out io.Writer
	// Links starts handing the links the OS sends as events (macOS) to
	// show.
	Links func(show func(sessionID string))
	// Activate brings this process forward as it shows a request.
	Activate func()
	// OpenTerminal opens a session in the OS's terminal app where it can
	// (app.Options.OpenTerminal).
	OpenTerminal func(sessionID string) bool
}

// RunDashboard is the dashboard process: the Fyne app with the dashboard
// and the consoles, showing what the tray asks for on c.In until the tray
// closes it or the last window closes, or ctx ends.
func RunDashboard(ctx context.Context, c DashboardConfig) {
	if c.Activate == nil {
		c.Activate = func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	a := fyneapp.NewWithID(AppID)
	a.SetIcon(assets.Icon)
	var closing atomic.Bool // set on Fyne's goroutine as the last window closes
	ui := app.New(app.Options{
		App: a, Log: c.Log, Title: "Build Station", OpenTerminal: c.OpenTerminal,
		Connect: c.Connect,
		LastWindowClosed: func() {
			closing.Store(true)
			a.Quit()
		},
	})
	a.Lifecycle().SetOnStarted(func() { startDashboard(ctx, a, ui, c, &closing) })
	go func() {
		<-ctx.Done()
		fyne.Do(a.Quit)
	}()
	a.Run()
}

// startDashboard runs once Fyne has started: links open windows, the UI
// connects, the focused session opens, and the tray's requests are shown
// until the tray closes the pipe, which quits this process. closing is
// set as the last window closes: a request that arrives then is refused,
// and the tray starts another process for it.
func startDashboard(ctx context.Context, a fyne.App, ui *app.UI, c DashboardConfig, closing *atomic.Bool) {
	if c.Links != nil {
		c.Links(func(id string) {
			fyne.Do(func() {
				if id != "" {
					ui.OpenSession(id)
				} else {
					ui.ShowDashboard()
				}
			})
		})
	}
	ui.Start(ctx, true)
	if c.Focus != "" {
		ui.OpenSession(c.Focus)
	}
	go func() {
		takeRequests(c.In, c.Out, c.Log, func(r Request) bool {
			took := make(chan bool, 1)
			fyne.Do(func() {
				if closing.Load() {
					took <- false
					return
				}
				showRequest(ui, r)
				c.Activate()
				took <- true
			})
			return <-took
		})
		// The tray quit (or closed the pipe): so does this process.
		fyne.Do(a.Quit)
	}()
}

// showRequest shows what the tray asked for (on Fyne's goroutine).
func showRequest(ui *app.UI, r Request) {
	switch r.Do {
	case DoSession:
		ui.OpenSession(r.ID)
	case DoDiff:
		ui.ShowTaskDiff(r.ID)
	case DoConsole:
		ui.Do(app.MenuLine{Action: app.ActConsole, ID: r.ID})
	case DoAddTask:
		ui.Do(app.MenuLine{Action: app.ActAddTask})
	case DoSettings:
		ui.Do(app.MenuLine{Action: app.ActSettings})
	case DoAddProject:
		ui.Do(app.MenuLine{Action: app.ActAddProject})
	case DoError:
		ui.ShowError(errors.New(r.Text))
	case DoPreview:
		ui.ShowTrayPreview()
	default:
		ui.ShowDashboard()
	}
}
