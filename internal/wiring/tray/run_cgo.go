//go:build cgo

package tray

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/buildstation/buildstation/app"
	apptray "github.com/buildstation/buildstation/app/tray"
	"github.com/buildstation/buildstation/assets"
	"github.com/buildstation/buildstation/cli"
	"github.com/buildstation/buildstation/internal/deeplink"
	"github.com/buildstation/buildstation/internal/update"
	"github.com/buildstation/buildstation/internal/wiring/demo"
	"github.com/buildstation/buildstation/platform/browser"
	"github.com/buildstation/buildstation/platform/desktop"
	"github.com/buildstation/buildstation/platform/instance"
	"github.com/buildstation/buildstation/platform/notifier"
	"github.com/buildstation/buildstation/platform/service"
	"github.com/buildstation/buildstation/supervisor/client"
	"github.com/buildstation/buildstation/supervisor/config"
)

// Available: this build has the tray (service install writes its login
// item).
const Available = true

// Run is the tray role: `buildstation [--hidden]` and
// `buildstation open [SESSION-ID]`. A tray already running for this home
// gets the request and this process exits.
func Run(ctx context.Context, homeFlag, verb string, args []string, e Edges) int {
	hidden, open, diff, code := runArgs(verb, args)
	if code != 0 {
		return code
	}
	home, err := config.Home(homeFlag)
	if err != nil {
		return fail(err)
	}
	// This process was started by a click (a toast, a link): it may hand
	// the right to come to the front on to the window that answers it.
	desktop.AllowForeground()
	req := instance.Request{Open: open}
	if diff != "" {
		req.Task, req.Do = diff, deeplink.VerbDiff
	}
	if err := instance.Send(home, req); err == nil {
		return 0 // the running tray shows it
	}
	if msg := desktop.DisplayProblem(); msg != "" {
		fmt.Fprintf(os.Stderr, "buildstation: cannot show the tray: %s; the station runs without it (\"buildstation daemon\", then the CLI: \"buildstation help\").\n", msg)
		return 1
	}
	srv, err := instance.Listen(home)
	if errors.Is(err, instance.ErrRunning) {
		return handOff(home, req)
	}
	if err != nil {
		return fail(err)
	}
	log, closeLog := trayLog(home)
	defer closeLog()
	defer srv.Close()
	return serve(ctx, home, srv, apptray.Config{
		Hidden: hidden && open == "" && diff == "", Open: open, Diff: diff, Log: log,
		Connect: stationConnect(home, log, e),
		Start: func(ctx context.Context) error {
			_, err := bringUp(ctx, home, log, e, "a person chose Start station")
			return err
		},
	})
}

// runArgs reads the tray role's arguments: whether to start hidden, the
// session to open (a link's session ID, or "" for the dashboard) and the
// task whose diff window to open (a finished notice's View diff link).
// code is non-zero, the message printed, when an argument is wrong.
func runArgs(verb string, args []string) (hidden bool, open, diff string, code int) {
	hidden = verb == "--hidden"
	usage := "usage: buildstation [--hidden] | buildstation open [SESSION-ID]"
	for _, a := range args {
		switch {
		case a == "--hidden" || a == "-hidden":
			hidden = true
		case verb == "open" && open == "" && a != "" && a[0] != '-':
			open = a
			if strings.HasPrefix(strings.ToLower(a), deeplink.Scheme+":") { // a toast click or a link
				l, ok := deeplink.ParseLink(a)
				if !ok {
					fmt.Fprintf(os.Stderr, "buildstation: %q is not a Build Station link; use buildstation://session/ID or buildstation://dashboard\n", a)
					return false, "", "", 2
				}
				open = l.SessionID
				if l.Verb == deeplink.VerbDiff {
					diff = l.Task
				}
			}
		default:
			fmt.Fprintf(os.Stderr, "buildstation: unknown argument %q; %s\n", a, usage)
			return false, "", "", 2
		}
	}
	return hidden, open, diff, 0
}

// handOff gives the request to the tray that already holds the home. That
// tray may be starting: it listens a moment after it claims the home, so
// the request is retried for about five seconds.
func handOff(home string, req instance.Request) int {
	for i := 0; ; i++ {
		err := instance.Send(home, req)
		if err == nil {
			return 0
		}
		if i == 20 {
			return fail(err)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// Demo is `buildstation demo`: a demo station in this process and the
// tray on its home, the dashboard open.
func Demo(ctx context.Context, home string, log *slog.Logger, e Edges) int {
	if msg := desktop.DisplayProblem(); msg != "" {
		fmt.Fprintf(os.Stderr, "buildstation: cannot show the demo's tray: %s; run \"buildstation demo --headless\" for the demo without it.\n", msg)
		return 1
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	narration, closeNarration := logFile(home, "demo.log") // the window is the show
	defer closeNarration()
	errc := make(chan error, 1)
	// The tray demo keeps its station until the tray quits.
	go func() { errc <- demo.Run(ctx, home, e.StationOptions(home, log), narration, true) }()
	srv, err := instance.Listen(home)
	if err != nil {
		log.Warn("demo tray: no single-instance endpoint", "err", err)
		srv = nil
	}
	fmt.Fprintf(os.Stderr, "Build Station demo: home %s; the tray and dashboard are up, quit the tray to stop.\n", home)
	if srv != nil {
		defer srv.Close()
	}
	code := serve(ctx, home, srv, apptray.Config{
		Log: log,
		Connect: func(ctx context.Context, first bool) (app.Client, error) {
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

// serve runs the tray (app/tray) with this machine's pieces: the
// dashboard process, the OS's notices, the single-instance endpoint srv
// (nil: none), links, the browser and the daily update check.
func serve(ctx context.Context, home string, srv *instance.Server, c apptray.Config) int {
	self, _ := os.Executable()
	log := c.Log
	c.Dashboard = apptray.Dashboards(startDashboard(self, home), desktop.YieldTo, log)
	c.Notices = func(h apptray.NoticeHandlers) (apptray.Notifier, error) {
		return notifier.New(notifier.Options{
			AppName: "Build Station", Icon: assets.Icon.Content(), Self: self, Log: log,
			Open:    h.Open,
			Land:    h.Land,
			Decide:  notifier.DecideWith(self, home, log),
			LinkKey: notifier.LinkKeyOf(home),
		})
	}
	// A Quit request (`service pause`: an installer is about to replace
	// this program) ends the tray as a signal would.
	ctx, quit := context.WithCancel(ctx)
	defer quit()
	if srv != nil {
		c.Requests = func(ctx context.Context, show func(string), land func(sessionID, taskID, verb string)) {
			srv.Serve(ctx, func(r instance.Request) {
				switch {
				case r.Quit:
					log.Info("asked to quit (service pause)")
					quit()
				case r.Task != "" && (r.Do == deeplink.VerbDiff || r.Do == deeplink.VerbMerge):
					// A finished notice's View diff or Merge, pressed
					// through its link (the key of a Merge checked by
					// `buildstation open`).
					land(r.Open, r.Task, r.Do)
				default:
					show(r.Open)
				}
			})
		}
	}
	c.Links = func(show func(string)) { desktop.ReceiveLinks(log, show) }
	c.Foreground = desktop.AllowForeground
	c.OpenURL = browser.Open
	c.UpdateCheck = updateCheck(home, log)
	return apptray.Serve(ctx, c)
}

// updateCheck asks the releases whether a newer version than this build
// exists, at most once a day (the time of the last ask is kept in the
// home), unless config.toml's update_check is off.
func updateCheck(home string, log *slog.Logger) func(context.Context) app.UpdateNote {
	daily := update.Daily{Checker: update.New(cli.Version), File: filepath.Join(home, "update.json"), Now: time.Now, Log: log}
	return func(ctx context.Context) app.UpdateNote {
		if !updateWanted(home) {
			return app.UpdateNote{}
		}
		if rel, ok := daily.Check(ctx); ok {
			return app.UpdateNote{Version: rel.Version, URL: rel.URL}
		}
		return app.UpdateNote{}
	}
}

// updateWanted: config.toml's update_check is on (a config.toml that
// cannot be read leaves it on).
func updateWanted(home string) bool {
	path := filepath.Join(home, config.FileConfig)
	data, err := os.ReadFile(path)
	if err != nil {
		return true
	}
	cfg, err := config.Parse(path, data, config.Platform{})
	return err != nil || cfg.UpdateCheck
}

// stationConnect dials the home's station; the first time, when none
// answers, it starts one detached (it outlives the tray) and waits for it.
func stationConnect(home string, log *slog.Logger, e Edges) app.Connect {
	return func(ctx context.Context, first bool) (app.Client, error) {
		c, err := client.Dial(home)
		if err == nil || !first {
			if err != nil {
				return nil, err
			}
			return c, nil
		}
		return bringUp(ctx, home, log, e, "no station answers")
	}
}

// bringUp starts the home's station, through the installed autostart
// when there is one (it restarts a station that dies; one this tray
// spawns is not), else as a detached "buildstation daemon" that outlives
// the tray, and waits until it answers. why goes to the log.
func bringUp(ctx context.Context, home string, log *slog.Logger, e Edges, why string) (app.Client, error) {
	if startInstalled(home, log, e) {
		return waitStation(ctx, home, 30*time.Second)
	}
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find this program to start a station: %w", err)
	}
	log.Info(why+"; starting a station", "home", home)
	if err := startStation(self, home); err != nil {
		return nil, fmt.Errorf("start a station: %w", err)
	}
	return waitStation(ctx, home, 30*time.Second)
}

// startInstalled asks the installed autostart (launchd, systemd, the logon
// task) to start the station, when one is installed for home: a station
// that one supervises is restarted if it dies; one the tray spawns is not.
// False: none is installed, or it would not start.
func startInstalled(home string, log *slog.Logger, e Edges) bool {
	if e.ServiceConfig == nil {
		return false
	}
	cfg, err := e.ServiceConfig(home)
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
	log.Info("asked the installed autostart to start the station", "home", home, "said", strings.TrimSpace(out.String()))
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

func fail(err error) int {
	fmt.Fprintf(os.Stderr, "buildstation: %v\n", err)
	return 1
}
