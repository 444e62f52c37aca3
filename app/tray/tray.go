package tray

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"sync"
	"time"

	"fyne.io/systray"

	"github.com/buildstation/buildstation/app"
	"github.com/buildstation/buildstation/internal/fynelocale"
	"github.com/buildstation/buildstation/internal/goroutines"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/client"
)

// Fyne's lang package has read the locale by now (see fynelocale).
func init() { fynelocale.Restore() }

// Config is what the wiring hands the tray: how it reaches the station,
// and the OS's pieces (notices, the dashboard process, links, other
// processes' requests), each injected, so this package links no platform
// package. A nil piece is left out.
type Config struct {
	Hidden bool   // start without the dashboard
	Open   string // the session to show first ("" for none)
	Diff   string // the task whose diff window to show first (a View diff link)
	Log    *slog.Logger
	// Connect dials the station (app.Station redials through it).
	Connect app.Connect
	// Start starts a stopped station and waits until it answers (the
	// menu's Start station); nil where the tray cannot (the demo's
	// station lives in the tray's own process).
	Start func(context.Context) error
	// Dashboard is the dashboard process the tray hands what to show.
	Dashboard Dashboard
	// Notices turns the OS's notifications on; h is what a click on a
	// notice, or a finished notice's View diff or Merge, does. An error
	// leaves notices off.
	Notices func(h NoticeHandlers) (Notifier, error)
	// Requests serves other processes' requests (`buildstation open`)
	// until ctx ends, handing each one's session ("" for the dashboard)
	// to show, and a finished notice's View diff or Merge pressed through
	// its link (a Windows toast's) to land, as NoticeHandlers.Land.
	Requests func(ctx context.Context, show func(sessionID string), land func(sessionID, taskID, verb string))
	// Links starts handing the links the OS sends as events (macOS) to
	// show.
	Links func(show func(sessionID string))
	// Foreground lets the window that answers next come to the front.
	Foreground func()
	// UpdateCheck asks whether a newer release exists (at most once a
	// day; the zero note when none, or when config.toml turns it off).
	UpdateCheck func(ctx context.Context) app.UpdateNote
	// OpenURL opens a link in the browser.
	OpenURL func(link string) error
}

// NoticeHandlers are what the tray does when a person acts on a notice.
type NoticeHandlers struct {
	// Open shows a clicked notice's session: its console while it
	// runs, its card after.
	Open func(sessionID string)
	// Land carries out a finished notice's button on the task its
	// session finished: verb "diff" opens the task's diff window, "merge"
	// merges its work.
	Land func(sessionID, taskID, verb string)
}

// Dashboard is the dashboard process as the tray sees it: Send queues a
// request without blocking, Run delivers them until ctx ends, Close waits
// (a while) for Run to end the process.
type Dashboard interface {
	Send(Request)
	Run(ctx context.Context)
	Close()
}

// Notifier shows and takes back the OS's notices.
type Notifier interface {
	Notify(supervisor.Notice) error
	Withdraw(supervisor.Notice) error
	Close() error
}

// tray is the tray process: the icon and menu (fyne.io/systray), the
// station's state (app.Station), the notices, and the dashboard process
// it starts when a window is wanted. It runs no Fyne app: with no window
// open it does nothing until the station says something changed.
type tray struct {
	c        Config
	log      *slog.Logger
	station  *app.Station
	dash     Dashboard
	notifier Notifier // nil: notices are off
	// notes runs the notifier's calls one at a time, in the order the
	// station's events asked for them: a withdrawal run beside the show it
	// takes back could find nothing shown yet and leave a notice up for a
	// state long over (a blocked task requeued at once).
	notes chan func()
	// merged are the tasks this tray merged from their finished notice,
	// whose "Merged: …" notice took that notice's place: the finished
	// notice's withdrawal, once the station tells of the merge, would
	// take the confirmation away.
	mergedMu sync.Mutex
	merged   map[string]bool
	prefs    prefs
	icon     bool // an icon shows (systray runs)

	// loss tells, once each, that the station stopped and that it is
	// back; used on the station's goroutine only.
	loss app.StationLoss
	// startFn is Config.Start; starting is held while it runs, so
	// two clicks start one station.
	startFn  func(context.Context) error
	starting sync.Mutex
	ctx      context.Context
	// work owns what the menu's clicks start (a decision, pausing the
	// queues, starting the station, opening a link): each runs under ctx,
	// and Serve waits for them before it returns.
	work goroutines.Group

	mu        sync.Mutex // what the icon and menu show now
	snap      app.Snapshot
	startNote app.StationStart // Start station's state, shown in the menu
	update    app.UpdateNote   // a newer release (checkUpdates), shown in the menu
	iconKey   string
	menuSig   string
	tooltip   string
}

// Serve runs the tray until the person quits it or ctx ends.
func Serve(ctx context.Context, c Config) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	t := &tray{c: c, log: c.Log, prefs: fynePrefs(AppID), icon: traySupported(c.Log), notes: make(chan func(), 64),
		startFn: c.Start, ctx: ctx, startNote: app.StationStart{Can: c.Start != nil}, dash: c.Dashboard}
	go t.runNotes(ctx)
	go t.checkUpdates(ctx)
	go t.dash.Run(ctx)
	// However the tray ends (Quit, a signal), the dashboard process ends
	// with it.
	defer func() {
		cancel()
		t.work.Close()
		t.dash.Close()
	}()
	connect, closeNotices := t.startNotices(c.Connect)
	defer closeNotices()
	t.station = app.NewStation(connect, c.Log)
	if !t.icon {
		t.start(ctx)
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
		t.start(ctx)
	}, nil)
	return 0
}

// startNotices turns the OS's notifications on, when it has them, and
// returns the connect the station should use with the function that
// turns them off. This tray then shows the station's notices: the
// station shows none of its own, so none appears twice.
func (t *tray) startNotices(connect app.Connect) (app.Connect, func()) {
	if t.c.Notices == nil {
		return connect, func() {}
	}
	n, err := t.c.Notices(NoticeHandlers{Open: func(id string) { t.show(Request{Do: DoSession, ID: id}) }, Land: t.land})
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
func (t *tray) start(ctx context.Context) {
	c := t.c
	if c.Links != nil {
		c.Links(t.showSessionOrDashboard)
	}
	go t.station.Run(ctx, app.StationHandlers{Snapshot: t.apply, Notice: t.notice, NoticeOver: t.withdraw})
	if c.Requests != nil {
		go c.Requests(ctx, t.showSessionOrDashboard, t.land)
	}
	// BUILDSTATION_TRAY_PREVIEW shows the tray's icon and menu in a
	// window as well: for a desktop with no tray to put the icon in.
	if os.Getenv("BUILDSTATION_TRAY_PREVIEW") != "" {
		t.show(Request{Do: DoPreview})
	}
	switch {
	case c.Diff != "":
		t.show(Request{Do: DoDiff, ID: c.Diff})
	case c.Open != "":
		t.show(Request{Do: DoSession, ID: c.Open})
	case !c.Hidden || !t.icon:
		// With no icon the dashboard is the only way in.
		t.show(Request{Do: DoDashboard})
	}
}

// showSessionOrDashboard opens session id's window, or the dashboard
// when id is "" (a link or a request that names no session).
func (t *tray) showSessionOrDashboard(id string) {
	if id != "" {
		t.show(Request{Do: DoSession, ID: id})
	} else {
		t.show(Request{Do: DoDashboard})
	}
}

// show asks the dashboard process to show something, starting it if
// none runs.
func (t *tray) show(r Request) {
	if t.c.Foreground != nil {
		t.c.Foreground()
	}
	t.dash.Send(r)
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
			go t.clicks(it, l)
			for _, c := range l.Sub {
				go t.clicks(it.AddSubMenuItem(c.Label, ""), c)
			}
		}
	}
}

// clicks carries out line l each time its item is clicked, until
// ResetMenu closes the item's channel.
func (t *tray) clicks(it *systray.MenuItem, l app.MenuLine) {
	for range it.ClickedCh {
		t.click(l)
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
		t.show(Request{Do: DoDashboard})
	case app.ActConsole:
		t.show(Request{Do: DoConsole, ID: l.ID})
	case app.ActAddTask:
		t.show(Request{Do: DoAddTask})
	case app.ActSettings:
		t.show(Request{Do: DoSettings})
	case app.ActAddProject:
		t.show(Request{Do: DoAddProject})
	case app.ActOpenURL:
		t.work.Go(func() { t.openLink(l.ID) })
	case app.ActReconnect:
		t.station.Refresh()
	case app.ActStartStation:
		t.work.Go(t.startStation)
	case app.ActPauseAll, app.ActResumeAll:
		t.work.Go(func() { t.pauseAll(l.Action == app.ActPauseAll) })
	case app.ActAllow, app.ActDeny:
		t.work.Go(func() { t.decide(l) })
	case app.ActQuit:
		systray.Quit()
	}
}

// decide allows or denies what a session asks, from the menu.
func (t *tray) decide(l app.MenuLine) {
	err := app.ErrNoStation
	if cl := t.station.Client(); cl != nil {
		ctx, cancel := context.WithTimeout(t.ctx, 30*time.Second)
		err = app.Decide(ctx, cl, l)
		cancel()
	}
	t.station.Refresh()
	if err != nil {
		t.log.Warn("tray action", "what", "decide", "session", l.ID, "err", err)
		t.show(Request{Do: DoError, Text: fmt.Sprintf("decide %s: %v", l.ID, err)})
	}
}

// land carries out a finished notice's View diff (in the dashboard
// process, where windows are) or Merge (here, as the tray's work).
func (t *tray) land(sessionID, taskID, verb string) {
	switch verb {
	case "diff":
		t.show(Request{Do: DoDiff, ID: taskID})
	case "merge":
		t.work.Go(func() { t.merge(sessionID, taskID) })
	}
}

// merge merges a task's work from its finished notice and says where it
// went in a notice that takes the finished one's place (its group: the
// same kind and session), with no buttons left to press; a failure (a
// conflict) is shown over the dashboard. The card follows by the
// station's event.
func (t *tray) merge(sessionID, taskID string) {
	t.mergedMu.Lock()
	if t.merged == nil {
		t.merged = map[string]bool{}
	}
	t.merged[taskID] = true
	t.mergedMu.Unlock()
	err := app.ErrNoStation
	var said supervisor.Notice
	if cl := t.station.Client(); cl != nil {
		ctx, cancel := context.WithTimeout(t.ctx, time.Minute)
		said, err = app.MergeTask(ctx, cl, taskID)
		cancel()
	}
	if err != nil {
		t.mergedMu.Lock()
		delete(t.merged, taskID)
		t.mergedMu.Unlock()
		t.log.Warn("tray action", "what", "merge", "task", taskID, "err", err)
		t.show(Request{Do: DoError, Text: fmt.Sprintf("merge %s: %v", taskID, err)})
		return
	}
	said.SessionID = sessionID
	t.notice(said)
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
	err := app.ErrNoStation
	if cl != nil {
		ctx, cancel := context.WithTimeout(t.ctx, 30*time.Second)
		err = app.PauseAll(ctx, cl, projects, pause)
		cancel()
	}
	t.station.Refresh()
	if err != nil {
		t.log.Warn("tray action", "what", what, "err", err)
		t.show(Request{Do: DoError, Text: fmt.Sprintf("%s: %v", what, err)})
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
	if n.Kind == supervisor.NoticeFinished {
		t.mergedMu.Lock()
		mine := t.merged[n.TaskID]
		delete(t.merged, n.TaskID)
		t.mergedMu.Unlock()
		if mine {
			return // its "Merged: …" notice shows in its place
		}
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
