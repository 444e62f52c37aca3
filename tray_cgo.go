//go:build cgo

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"
	"fyne.io/systray"
	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/buildstation/buildstation/app"
	"github.com/buildstation/buildstation/assets"
	"github.com/buildstation/buildstation/internal/demo"
	"github.com/buildstation/buildstation/internal/fynelocale"
	"github.com/buildstation/buildstation/platform/instance"
	"github.com/buildstation/buildstation/platform/notify"
	"github.com/buildstation/buildstation/platform/service"
	"github.com/buildstation/buildstation/platform/terminal"
	"github.com/buildstation/buildstation/supervisor/client"
	"github.com/buildstation/buildstation/supervisor/config"
)

// hasTray: this build has the tray (service install writes its login item).
const hasTray = true

// appID is the tray's identity for the OS and Fyne's preferences.
const appID = "dev.buildstation.app"

// Fyne's lang package has read the locale by now (see fynelocale).
func init() { fynelocale.Restore() }

// runTray is the tray role: `buildstation [--hidden]` and
// `buildstation open [SESSION-ID]`. A tray already running for this home
// gets the request and this process exits.
func runTray(ctx context.Context, homeFlag, verb string, args []string) int {
	hidden := verb == "--hidden"
	var open string
	usage := "usage: buildstation [--hidden] | buildstation open [SESSION-ID]"
	for _, a := range args {
		switch {
		case a == "--hidden" || a == "-hidden":
			hidden = true
		case verb == "open" && open == "" && a != "" && a[0] != '-':
			open = a
			if strings.HasPrefix(strings.ToLower(a), service.Scheme+":") { // a toast click or a link
				id, ok := service.ParseDeepLink(a)
				if !ok {
					fmt.Fprintf(os.Stderr, "buildstation: %q is not a Build Station link; use buildstation://session/ID or buildstation://dashboard\n", a)
					return 2
				}
				open = id
			}
		default:
			fmt.Fprintf(os.Stderr, "buildstation: unknown argument %q; %s\n", a, usage)
			return 2
		}
	}
	home, err := config.Home(homeFlag)
	if err != nil {
		return fail(err)
	}
	if err := instance.Send(home, instance.Request{Open: open}); err == nil {
		return 0 // the running tray shows it
	}
	if msg := displayProblem(); msg != "" {
		fmt.Fprintf(os.Stderr, "buildstation: cannot show the tray: %s; the station runs without it (\"buildstation daemon\", then the CLI: \"buildstation help\").\n", msg)
		return 1
	}
	srv, err := instance.Listen(home)
	if errors.Is(err, instance.ErrRunning) {
		// The other tray may be starting: it listens a moment after it
		// claims the home.
		for i := 0; ; i++ {
			err := instance.Send(home, instance.Request{Open: open})
			if err == nil {
				return 0
			}
			if i == 20 {
				return fail(err)
			}
			time.Sleep(250 * time.Millisecond)
		}
	}
	if err != nil {
		return fail(err)
	}
	log, closeLog := trayLog(home)
	defer closeLog()
	return serveTray(ctx, trayConfig{
		home: home, hidden: hidden && open == "", open: open, srv: srv, log: log,
		connect: stationConnect(home, log),
	})
}

// runDemoTray is `buildstation demo`: a demo station in this process and
// the tray on its home, the dashboard open.
func runDemoTray(ctx context.Context, home string, log *slog.Logger) int {
	if msg := displayProblem(); msg != "" {
		fmt.Fprintf(os.Stderr, "buildstation: cannot show the demo's tray: %s; run \"buildstation demo --headless\" for the demo without it.\n", msg)
		return 1
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	narration, closeNarration := demoNarration(home)
	defer closeNarration()
	errc := make(chan error, 1)
	go func() { errc <- demo.Run(ctx, home, stationOptions(home, log), narration) }()
	srv, err := instance.Listen(home)
	if err != nil {
		log.Warn("demo tray: no single-instance endpoint", "err", err)
		srv = nil
	}
	fmt.Fprintf(os.Stderr, "Build Station demo: home %s; the tray and dashboard are up, close the tray to stop.\n", home)
	code := serveTray(ctx, trayConfig{
		home: home, srv: srv, log: log,
		connect: func(ctx context.Context, first bool) (app.Client, error) {
			// The station starts in this process: wait for it.
			return waitStation(ctx, home, 20*time.Second)
		},
	})
	cancel()
	if err := <-errc; err != nil && !errors.Is(err, context.Canceled) {
		return fail(err)
	}
	return code
}

type trayConfig struct {
	home    string
	hidden  bool
	open    string
	srv     *instance.Server // nil: none
	log     *slog.Logger
	connect app.Connect
}

// serveTray runs the Fyne app until the person quits the tray or ctx
// ends.
func serveTray(ctx context.Context, c trayConfig) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	a := fyneapp.NewWithID(appID)
	a.SetIcon(assets.Icon)
	self, _ := os.Executable()
	var ui *app.UI
	opts := app.Options{
		App: a, Connect: c.connect, Log: c.log, Title: "Build Station", OpenTerminal: openTerminal(c.home, c.log),
		SetTooltip:   systray.SetTooltip,
		Template:     runtime.GOOS == "darwin",
		NoSystemTray: !traySupported(c.log),
	}
	n, err := notify.New(notify.Options{
		AppName: "Build Station", Icon: assets.Icon.Content(), Self: self, Log: c.log,
		Open: func(id string) { fyne.Do(func() { ui.OpenSession(id) }) },
	})
	if err != nil {
		c.log.Warn("notifications are off", "err", err)
	} else {
		defer n.Close()
		opts.Notifier = n
		// This tray shows the station's notices: the station then shows
		// none of its own, so none appears twice.
		opts.Connect = func(ctx context.Context, first bool) (app.Client, error) {
			cl, err := c.connect(ctx, first)
			if ac, ok := cl.(*client.Client); ok {
				ac.ShowsNotices = true
			}
			return cl, err
		}
	}
	ui = app.New(opts)
	// BUILDSTATION_TRAY_PREVIEW shows the tray's icon and menu in a window
	// instead of the dashboard: for screenshots, and for a desktop with no
	// tray to put the icon in.
	preview := os.Getenv("BUILDSTATION_TRAY_PREVIEW") != ""
	ui.ShowTray() // before Run, or Fyne never starts the tray
	a.Lifecycle().SetOnStarted(func() {
		receiveURLs(c.log, func(id string) {
			fyne.Do(func() {
				if id != "" {
					ui.OpenConsole(id)
				} else {
					ui.ShowDashboard()
				}
			})
		})
		ui.Start(ctx, c.hidden || preview)
		if c.open != "" {
			ui.OpenSession(c.open)
		}
		if preview {
			ui.ShowTrayPreview()
		}
	})
	if c.srv != nil {
		defer c.srv.Close()
		go c.srv.Serve(ctx, func(r instance.Request) {
			fyne.Do(func() {
				if r.Open != "" {
					ui.OpenSession(r.Open)
				} else {
					ui.ShowDashboard()
				}
			})
		})
	}
	go func() {
		<-ctx.Done()
		fyne.Do(a.Quit)
	}()
	a.Run()
	return 0
}

// displayProblem opens and closes a hidden 1×1 window with the OpenGL 2.1
// context Fyne needs, and says in a few words why that failed ("" when it
// worked): without a display, or on a machine with no OpenGL 2.1 (a
// Windows VM's basic display driver), Fyne would panic deep in GLFW.
// It runs on the main thread, before Fyne starts, like every GLFW call.
func displayProblem() (msg string) {
	const noDisplay = "no display to open a window on (is DISPLAY or WAYLAND_DISPLAY set, and does that display accept this user?)"
	const noGL = "this display has no OpenGL 2.1, which the tray's windows need (on a virtual machine, turn on 3D acceleration or install a GPU driver)"
	// GLFW reports through the standard logger as well as by errors and
	// panics: the person gets one sentence from us instead.
	log.SetOutput(io.Discard)
	defer log.SetOutput(os.Stderr)
	stage := noDisplay
	defer func() {
		if r := recover(); r != nil {
			msg = stage
		}
	}()
	if err := glfw.Init(); err != nil {
		return noDisplay
	}
	defer glfw.Terminate()
	glfw.WindowHint(glfw.Visible, glfw.False) // panics when Init found no display
	glfw.WindowHint(glfw.ContextVersionMajor, 2)
	glfw.WindowHint(glfw.ContextVersionMinor, 1)
	stage = noGL
	w, err := glfw.CreateWindow(1, 1, "display check", nil, nil)
	if err != nil {
		return noGL
	}
	w.Destroy()
	return ""
}

// stationConnect dials the home's station; the first time, when none
// answers, it starts one detached (it outlives the tray) and waits for it.
func stationConnect(home string, log *slog.Logger) app.Connect {
	return func(ctx context.Context, first bool) (app.Client, error) {
		c, err := client.Dial(home)
		if err == nil || !first {
			if err != nil {
				return nil, err
			}
			return c, nil
		}
		self, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("find this program to start a station: %w", err)
		}
		if startInstalled(home, log) {
			return waitStation(ctx, home, 20*time.Second)
		}
		log.Info("no station answers; starting one", "home", home)
		if err := startStation(self, home); err != nil {
			return nil, fmt.Errorf("start a station: %w", err)
		}
		return waitStation(ctx, home, 20*time.Second)
	}
}

// startInstalled asks the installed autostart (launchd, systemd, the logon
// task) to start the station, when one is installed for home: a station
// that one supervises is restarted if it dies; one the tray spawns is not.
// False: none is installed, or it would not start.
func startInstalled(home string, log *slog.Logger) bool {
	cfg, err := serviceConfig(home)
	if err != nil {
		return false
	}
	inst := service.Native()
	if !inst.Installed(cfg, service.OS{}) {
		return false
	}
	var out strings.Builder
	if err := inst.Start(cfg).Apply(service.OS{}, false, &out); err != nil {
		log.Warn("the installed autostart would not start the station; starting one here", "err", err)
		return false
	}
	log.Info("no station answers; asked the installed autostart to start it", "home", home, "said", strings.TrimSpace(out.String()))
	return true
}

// waitStation dials until the station answers. A station writes
// station.json once its API listens, a second or so after it starts; a
// short poll is the simplest way to see that file appear.
func waitStation(ctx context.Context, home string, limit time.Duration) (app.Client, error) {
	deadline := time.Now().Add(limit)
	for {
		c, err := client.Dial(home)
		if err == nil {
			return c, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("the station did not answer within %s; see %s", limit, filepath.Join(home, config.DirLogs, "station.log"))
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// trayLog logs the tray to logs/tray.log in the home.
func trayLog(home string) (*slog.Logger, func()) {
	w, closeFn := logFile(home, "tray.log")
	return slog.New(slog.NewTextHandler(w, nil)), closeFn
}

// demoNarration keeps the demo's narration in logs/demo.log: the window
// is the show.
func demoNarration(home string) (io.Writer, func()) { return logFile(home, "demo.log") }

func logFile(home, name string) (io.Writer, func()) {
	dir := filepath.Join(home, config.DirLogs)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return io.Discard, func() {}
	}
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return io.Discard, func() {}
	}
	return f, func() { f.Close() }
}

// openTerminal opens a tmux-backed session in Terminal.app on macOS; on
// other systems it reports false and the tray shows its own console.
func openTerminal(home string, log *slog.Logger) func(string) bool {
	self, err := os.Executable()
	if err != nil || runtime.GOOS != "darwin" {
		return nil
	}
	return func(id string) bool {
		ok, err := terminal.Open(self, home, id)
		if err != nil {
			log.Warn("open Terminal.app", "session", id, "err", err)
			return false
		}
		return ok
	}
}
