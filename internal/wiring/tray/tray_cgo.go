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
	"runtime"
	"strings"
	"sync"
	"time"

	"fyne.io/systray"

	"github.com/buildstation/buildstation/app"
	"github.com/buildstation/buildstation/assets"
	"github.com/buildstation/buildstation/internal/deeplink"
	"github.com/buildstation/buildstation/internal/fynelocale"
	"github.com/buildstation/buildstation/internal/wiring/demo"
	"github.com/buildstation/buildstation/platform/instance"
	"github.com/buildstation/buildstation/platform/notifier"
	"github.com/buildstation/buildstation/platform/service"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/client"
	"github.com/buildstation/buildstation/supervisor/config"
)

// Available: this build has the tray (service install writes its login
// item).
const Available = true

// appID is the windows' identity for the OS and Fyne's preferences.
const appID = "dev.buildstation.app"

// Fyne's lang package has read the locale by now (see fynelocale).
func init() { fynelocale.Restore() }

// Run is the tray role: `buildstation [--hidden]` and
// `buildstation open [SESSION-ID]`. A tray already running for this home
// gets the request and this process exits.
func Run(ctx context.Context, homeFlag, verb string, args []string, e Edges) int {
	hidden, open, code := runArgs(verb, args)
	if code != 0 {
		return code
	}
	home, err := config.Home(homeFlag)
	if err != nil {
		return fail(err)
	}
	// This process was started by a click (a toast, a link): it may hand
	// the right to come to the front on to the window that answers it.
	allowForeground()
	if err := instance.Send(home, instance.Request{Open: open}); err == nil {
		return 0 // the running tray shows it
	}
	if msg := displayProblem(); msg != "" {
		fmt.Fprintf(os.Stderr, "buildstation: cannot show the tray: %s; the station runs without it (\"buildstation daemon\", then the CLI: \"buildstation help\").\n", msg)
		return 1
	}
	srv, err := instance.Listen(home)
	if errors.Is(err, instance.ErrRunning) {
		return handOff(home, open)
	}
	if err != nil {
		return fail(err)
	}
	log, closeLog := trayLog(home)
	defer closeLog()
	return serve(ctx, trayConfig{
		home: home, hidden: hidden && open == "", open: open, srv: srv, log: log,
		connect: stationConnect(home, log, e),
		start: func(ctx context.Context) error {
			_, err := bringUp(ctx, home, log, e, "a person chose Start station")
			return err
		},
	})
}

// runArgs reads the tray role's arguments: whether to start hidden and
// the session to open (a link's session ID, or "" for the dashboard).
// code is non-zero, the message printed, when an argument is wrong.
func runArgs(verb string, args []string) (hidden bool, open string, code int) {
	hidden = verb == "--hidden"
	usage := "usage: buildstation [--hidden] | buildstation open [SESSION-ID]"
	for _, a := range args {
		switch {
		case a == "--hidden" || a == "-hidden":
			hidden = true
		case verb == "open" && open == "" && a != "" && a[0] != '-':
			open = a
			if strings.HasPrefix(strings.ToLower(a), deeplink.Scheme+":") { // a toast click or a link
				id, ok := deeplink.ParseDeepLink(a)
				if !ok {
					fmt.Fprintf(os.Stderr, "buildstation: %q is not a Build Station link; use buildstation://session/ID or buildstation://dashboard\n", a)
					return false, "", 2
				}
				open = id
			}
		default:
			fmt.Fprintf(os.Stderr, "buildstation: unknown argument %q; %s\n", a, usage)
			return false, "", 2
		}
	}
	return hidden, open, 0
}

// handOff gives the request to the tray that already holds the home. That
// tray may be starting: it listens a moment after it claims the home, so
// the request is retried for about five seconds.
func handOff(home, open string) int {
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

// Demo is `buildstation demo`: a demo station in this process and the
// tray on its home, the dashboard open.
func Demo(ctx context.Context, home string, log *slog.Logger, e Edges) int {
	if msg := displayProblem(); msg != "" {
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
	code := serve(ctx, trayConfig{
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
	// start starts a stopped station and waits until it answers (the
	// menu's Start station); nil where the tray cannot (the demo's
	// station lives in the tray's own process).
	start func(context.Context) error
}

// tray is the tray process: the icon and menu (fyne.io/systray), the
// station's state (app.Station), the notices, and the dashboard process
// it starts when a window is wanted. It runs no Fyne app: with no window
// open it does nothing until the station says something changed.
type tray struct {
	log      *slog.Logger
	station  *app.Station
	dash     *dashboards
	notifier *notifier.Notifier // nil: notices are off
	// notes runs the notifier's calls one at a time, in the order the
	// station's events asked for them: a withdrawal run beside the show it
	// takes back could find nothing shown yet and leave a notice up for a
	// state long over (a blocked task requeued at once).
	notes chan func()
	prefs prefs
	icon  bool // an icon shows (systray runs)

	// loss tells, once each, that the station stopped and that it is
	// back; used on the station's goroutine only.
	loss app.StationLoss
	// startFn is trayConfig.start; starting is held while it runs, so
	// two clicks start one station.
	startFn  func(context.Context) error
	starting sync.Mutex
	ctx      context.Context

	mu        sync.Mutex // what the icon and menu show now
	snap      app.Snapshot
	startNote app.StationStart // Start station's state, shown in the menu
	update    app.UpdateNote   // a newer release (checkUpdates), shown in the menu
	iconKey   string
	menuSig   string
	tooltip   string
}

// serve runs the tray until the person quits it or ctx ends.
func serve(ctx context.Context, c trayConfig) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	self, _ := os.Executable()
	t := &tray{log: c.log, prefs: fynePrefs(appID), icon: traySupported(c.log), notes: make(chan func(), 64),
		startFn: c.start, ctx: ctx, startNote: app.StationStart{Can: c.start != nil}}
	go t.runNotes(ctx)
	go t.checkUpdates(ctx, c.home)
	t.dash = newDashboards(self, c.home, c.log)
	go t.dash.run(ctx)
	// However the tray ends (Quit, a signal), the dashboard process ends
	// with it.
	defer func() {
		cancel()
		t.dash.close()
	}()
	connect, closeNotices := t.startNotices(self, c.home, c.connect)
	defer closeNotices()
	t.station = app.NewStation(connect, c.log)
	if c.srv != nil {
		defer c.srv.Close()
	}
	if !t.icon {
		t.start(ctx, c)
		<-ctx.Done()
		return 0
	}
	go func() {
		<-ctx.Done()
		systray.Quit()
	}()
	// systray.Run keeps this (the main) thread for the OS's event loop —
	// D-Bus calls on Linux, the Win32 message loop, NSApp on macOS — and
	// returns when the tray quits. onReady runs on a goroutine of its own.
	systray.Run(func() {
		if runtime.GOOS != "windows" && runtime.GOOS != "darwin" {
			// Some XDG trays crash on an item without a title.
			systray.SetTitle("Build Station")
		}
		t.draw()
		t.start(ctx, c)
	}, nil)
	return 0
}

// startNotices turns the OS's notifications on, when it has them, and
// returns the connect the station should use with the function that
// turns them off. This tray then shows the station's notices: the
// station shows none of its own, so none appears twice.
func (t *tray) startNotices(self, home string, connect app.Connect) (app.Connect, func()) {
	n, err := notifier.New(notifier.Options{
		AppName: "Build Station", Icon: assets.Icon.Content(), Self: self, Log: t.log,
		Open:    func(id string) { t.show(request{Do: doSession, ID: id}) },
		Decide:  notifier.DecideWith(self, home, t.log),
		LinkKey: notifier.LinkKeyOf(home),
	})
	if err != nil {
		t.log.Warn("notifications are off", "err", err)
		return connect, func() {}
	}
	t.notifier = n
	return func(ctx context.Context, first bool) (app.Client, error) {
		cl, err := connect(ctx, first)
		if ac, ok := cl.(*client.Client); ok {
			ac.ShowsNotices = true
		}
		return cl, err
	}, func() { n.Close() }
}

// start begins the tray's work once it can draw (the icon is ready, or
// there is none): links and other processes' requests open windows, the
// station's state flows in, and the first window asked for shows.
func (t *tray) start(ctx context.Context, c trayConfig) {
	receiveURLs(c.log, t.showSessionOrDashboard)
	go t.station.Run(ctx, app.StationHandlers{Snapshot: t.apply, Notice: t.notice, NoticeOver: t.withdraw})
	if c.srv != nil {
		go c.srv.Serve(ctx, func(r instance.Request) { t.showSessionOrDashboard(r.Open) })
	}
	// BUILDSTATION_TRAY_PREVIEW shows the tray's icon and menu in a
	// window as well: for a desktop with no tray to put the icon in.
	if os.Getenv("BUILDSTATION_TRAY_PREVIEW") != "" {
		t.show(request{Do: doPreview})
	}
	switch {
	case c.open != "":
		t.show(request{Do: doSession, ID: c.open})
	case !c.hidden || !t.icon:
		// With no icon the dashboard is the only way in.
		t.show(request{Do: doDashboard})
	}
}

// showSessionOrDashboard opens session id's window, or the dashboard
// when id is "" (a link or a request that names no session).
func (t *tray) showSessionOrDashboard(id string) {
	if id != "" {
		t.show(request{Do: doSession, ID: id})
	} else {
		t.show(request{Do: doDashboard})
	}
}

// show asks the dashboard process to show something, starting it if
// none runs.
func (t *tray) show(r request) {
	allowForeground()
	t.dash.send(r)
}

// apply takes a snapshot from the station (on its goroutine).
func (t *tray) apply(s app.Snapshot) {
	t.mu.Lock()
	t.snap = s
	s.Start = t.startNote
	t.mu.Unlock()
	t.draw()
	if n := t.loss.Note(s, time.Now()); n != nil {
		t.log.Info("station notice", "title", n.Title)
		t.notice(*n)
	}
}

// draw puts the icon, tooltip and menu of the latest snapshot in the tray,
// touching only what changed: an unchanged state neither rebuilds the
// OS's menu nor re-encodes the icon.
func (t *tray) draw() {
	if !t.icon {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	template := runtime.GOOS == "darwin"
	snap := t.snap
	snap.Update, snap.Start = t.update, t.startNote
	if key, draw := app.TrayIcon(snap, template); key != t.iconKey {
		png, err := draw()
		if err == nil {
			err = setIcon(png, template)
		}
		if err != nil {
			t.log.Warn("draw tray icon", "err", err)
		} else {
			t.iconKey = key
		}
	}
	if tip := app.TooltipFor(snap); tip != t.tooltip {
		t.tooltip = tip
		systray.SetTooltip(tip)
	}
	lines := app.TrayLines(snap)
	if sig := app.MenuSignature(lines); sig != t.menuSig {
		t.menuSig = sig
		systray.ResetMenu()
		for _, l := range lines {
			if l.Separator {
				systray.AddSeparator()
				continue
			}
			it := systray.AddMenuItem(l.Label, "")
			// ResetMenu closes the channel: the goroutine ends with
			// its item.
			go func() {
				for range it.ClickedCh {
					t.click(l)
				}
			}()
		}
	}
}

// setIcon hands a PNG to the OS tray (an .ico on Windows).
func setIcon(png []byte, template bool) error {
	img, err := osIcon(png)
	if err != nil {
		return err
	}
	if template {
		systray.SetTemplateIcon(img, img)
	} else {
		systray.SetIcon(img)
	}
	return nil
}

// click carries out a menu line: windows in the dashboard process, the
// rest here.
func (t *tray) click(l app.MenuLine) {
	switch l.Action {
	case app.ActDashboard:
		t.show(request{Do: doDashboard})
	case app.ActConsole:
		t.show(request{Do: doConsole, ID: l.ID})
	case app.ActAddTask:
		t.show(request{Do: doAddTask})
	case app.ActSettings:
		t.show(request{Do: doSettings})
	case app.ActAddProject:
		t.show(request{Do: doAddProject})
	case app.ActOpenURL:
		go t.openLink(l.ID)
	case app.ActReconnect:
		t.station.Refresh()
	case app.ActStartStation:
		go t.startStation()
	case app.ActPauseAll, app.ActResumeAll:
		go t.pauseAll(l.Action == app.ActPauseAll)
	case app.ActAllow, app.ActDeny:
		go t.decide(l)
	case app.ActQuit:
		systray.Quit()
	}
}

// decide allows or denies what a session asks, from the menu.
func (t *tray) decide(l app.MenuLine) {
	err := errors.New("no station is running; it will be reconnected when one starts (\"buildstation daemon\")")
	if cl := t.station.Client(); cl != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		err = app.Decide(ctx, cl, l)
		cancel()
	}
	t.station.Refresh()
	if err != nil {
		t.log.Warn("tray action", "what", "decide", "session", l.ID, "err", err)
		t.show(request{Do: doError, Text: fmt.Sprintf("decide %s: %v", l.ID, err)})
	}
}

// pauseAll pauses or resumes every project's queue; a failure is shown
// over the dashboard, where the queues are.
func (t *tray) pauseAll(pause bool) {
	t.mu.Lock()
	projects := t.snap.Projects
	t.mu.Unlock()
	what := "resume the queue"
	if pause {
		what = "pause the queue"
	}
	cl := t.station.Client()
	err := errors.New("no station is running; it will be reconnected when one starts (\"buildstation daemon\")")
	if cl != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		err = app.PauseAll(ctx, cl, projects, pause)
		cancel()
	}
	t.station.Refresh()
	if err != nil {
		t.log.Warn("tray action", "what", what, "err", err)
		t.show(request{Do: doError, Text: fmt.Sprintf("%s: %v", what, err)})
	}
}

// startStation is the menu's Start station: the installed autostart
// starts the station, else a detached one does; the menu says Starting…
// meanwhile and, should it fail, why. Once it answers, the connection is
// redialled at once rather than at its next retry.
func (t *tray) startStation() {
	if t.startFn == nil || !t.starting.TryLock() {
		return // a start is under way
	}
	defer t.starting.Unlock()
	t.setStart(app.StationStart{Can: true, Starting: true})
	err := t.startFn(t.ctx)
	st := app.StationStart{Can: true}
	if err != nil {
		t.log.Warn("start the station", "err", err)
		st.Err = err.Error()
	}
	t.setStart(st)
	t.station.Refresh()
}

func (t *tray) setStart(st app.StationStart) {
	t.mu.Lock()
	t.startNote = st
	t.mu.Unlock()
	t.draw()
}

// notice shows a notice if its kind is turned on (the dashboard's
// notification settings, read from its preferences file as they are now).
// That the station stopped, or runs again, is always told.
func (t *tray) notice(n supervisor.Notice) {
	if t.notifier == nil || (n.Kind != supervisor.NoticeStation && !app.NoticeWanted(t.prefs.bool, n.Kind)) {
		return
	}
	t.note(func() {
		if err := t.notifier.Notify(n); err != nil {
			t.log.Warn("show notification", "kind", n.Kind, "session", n.SessionID, "err", err)
		}
	})
}

// withdraw takes back a notice whose state is over.
func (t *tray) withdraw(n supervisor.Notice) {
	if t.notifier == nil {
		return
	}
	t.note(func() {
		if err := t.notifier.Withdraw(n); err != nil {
			t.log.Warn("withdraw notification", "kind", n.Kind, "session", n.SessionID, "err", err)
		}
	})
}

// note queues one notifier call without blocking the station's goroutine;
// with 64 waiting (a desktop bus that hangs) it drops and says so.
func (t *tray) note(f func()) {
	select {
	case t.notes <- f:
	default:
		t.log.Warn("notifications are not getting through; one was dropped")
	}
}

// runNotes makes the queued notifier calls in order until ctx ends.
func (t *tray) runNotes(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case f := <-t.notes:
			f()
		}
	}
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
