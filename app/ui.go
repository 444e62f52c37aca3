package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/buildstation/buildstation/assets"
	"github.com/buildstation/buildstation/supervisor"
)

// Notifier shows a notice on the desktop; a click on it should end in
// UI.OpenConsole for the notice's session (the platform code arranges
// that). It may be called from any goroutine.
type Notifier interface {
	Notify(n supervisor.Notice) error
}

// Options are what main hands the UI.
type Options struct {
	App     fyne.App // made by main (fyne.io/fyne/v2/app), the test app in tests
	Connect Connect
	// Notifier shows notices; nil shows none.
	Notifier Notifier
	Log      *slog.Logger
	// Title is the dashboard window's title.
	Title string
	// OpenTerminal opens a session in the OS's own terminal where it can
	// (macOS: Terminal.app on a tmux session) and reports whether it did;
	// nil, or false, shows the tray's own console instead.
	OpenTerminal func(sessionID string) bool
	// LastWindowClosed, when set, is called on Fyne's goroutine when the
	// last window closes (the dashboard hidden, no console open): the
	// dashboard process the tray starts quits there.
	LastWindowClosed func()
	// Now is the clock the countdowns read; nil is time.Now.
	Now func() time.Time
	// Tick is how often a visible dashboard updates its countdowns; 0 is
	// one second. Refresh is how often it re-reads the board so that the
	// consoles' silence stays true (the event stream says when a session
	// changes state, not each time it prints); 0 is five seconds.
	Tick, Refresh time.Duration
	// OnConsoleFrame, when set, is called on Fyne's goroutine after a
	// console shows a frame, with the rows it shows: the tray benchmark
	// counts frames and watches for the latest output with it.
	OnConsoleFrame func(sessionID string, rows []widget.TextGridRow)
}

// UI is the tray's windows: the dashboard, the consoles, the notices of
// the process that shows them. The tray icon and menu are not here: the
// tray process draws them (app/tray) from TrayLines and TrayIcon. Its
// methods run on Fyne's goroutine unless they say otherwise.
type UI struct {
	// phone is the Notification settings' Phone section last shown.
	phone    *phoneForm
	o        Options
	app      fyne.App
	ctx      context.Context
	conn     *conn
	snap     Snapshot
	icon     fyne.Resource
	dash     *dashboard
	consoles map[string]*console
	previews []func() // tray preview windows to redraw
	// waiting are session opens asked for before the first connected
	// snapshot: where they lead (console or card) depends on the board.
	waiting []string
	// pending are dialogs and menu actions asked for before the first
	// connected snapshot (a dashboard process just started, a station
	// just started): each reads the board, so each waits for it, while
	// connecting says so.
	pending    []func()
	connecting *connecting
	// later are reads of a window already open that wait, with no
	// dialog of their own, for the first connected snapshot (the
	// Notification settings' Phone section).
	later []func()
	// bg counts the goroutines that paint windows (consoles, cards,
	// actions, the dashboard's ticker); all end with ctx, and its Wait
	// tells a caller that nothing paints any more.
	bg sync.WaitGroup
	// acts counts the API calls of act under way (tests wait on it).
	acts sync.WaitGroup
	// call runs a dialog's call to the station off Fyne's goroutine
	// (u.bg.Go); tests run it in line, as the test driver has no such
	// goroutine to hand the answer back to.
	call func(func())
}

// New makes the UI; nothing shows until Start.
func New(o Options) *UI {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Title == "" {
		o.Title = "Build Station"
	}
	if o.Tick == 0 {
		o.Tick = time.Second
	}
	if o.Refresh == 0 {
		o.Refresh = 5 * time.Second
	}
	u := &UI{o: o, app: o.App, icon: assets.Icon, consoles: map[string]*console{}, ctx: context.Background()}
	u.call = u.bg.Go
	u.conn = newConn(o.Connect, o.Log)
	u.conn.onSnap = func(s Snapshot) { fyne.Do(func() { u.apply(s) }) }
	u.conn.onNotice = func(n supervisor.Notice) { fyne.Do(func() { u.notice(n) }) }
	u.conn.onNoticeOver = u.noticeOver
	return u
}

// Start shows the dashboard unless hidden, and connects in the background
// until ctx ends. Call it on Fyne's goroutine as the app runs (from
// App.Lifecycle's OnStarted).
func (u *UI) Start(ctx context.Context, hidden bool) {
	u.ctx = ctx
	u.app.SetIcon(u.icon)
	if !hidden {
		u.ShowDashboard()
	}
	go u.conn.Run(ctx)
}

// Snapshot is what the windows show now.
func (u *UI) Snapshot() Snapshot { return u.snap }

// apply takes a new snapshot from the connection.
func (u *UI) apply(s Snapshot) {
	u.snap = s
	for _, p := range u.previews {
		p()
	}
	if u.dash != nil {
		u.dash.update()
	}
	for id, c := range u.consoles {
		c.win.SetTitle(u.consoleTitle(id))
		c.follow()
	}
	// What waited for the station runs once the windows show the
	// snapshot: a dialog opens over the board it reads, and the calls it
	// starts come after the board was drawn.
	u.runPending()
	if s.Connected && len(u.waiting) > 0 {
		waiting := u.waiting
		u.waiting = nil
		for _, id := range waiting {
			u.OpenSession(id)
		}
	}
	for _, c := range u.consoles {
		c.attachWhenConnected()
	}
}

// notice shows a notification if its kind is turned on.
func (u *UI) notice(n supervisor.Notice) {
	if u.o.Notifier == nil || !NoticeWanted(u.app.Preferences().BoolWithFallback, n.Kind) {
		return
	}
	go func() {
		if err := u.o.Notifier.Notify(n); err != nil {
			u.o.Log.Warn("show notification", "kind", n.Kind, "session", n.SessionID, "err", err)
		}
	}()
}

// Withdrawer is a Notifier that can take back a notice whose state is over
// (the nudged session shows life, the blocked task was requeued).
type Withdrawer interface {
	Withdraw(n supervisor.Notice) error
}

// noticeOver withdraws a notice from the desktop; called on conn's
// goroutine, it touches no window.
func (u *UI) noticeOver(n supervisor.Notice) {
	w, ok := u.o.Notifier.(Withdrawer)
	if !ok {
		return
	}
	go func() {
		if err := w.Withdraw(n); err != nil {
			u.o.Log.Warn("withdraw notification", "kind", n.Kind, "session", n.SessionID, "err", err)
		}
	}()
}

// ErrNoStation is what an action says while no station answers, in a
// desktop user's words: the tray's menu starts it (the dashboard
// reconnects by itself once it runs).
var ErrNoStation = errors.New("the station is not running; choose " + StartStationLine + " in the Build Station menu")

var errNoStation = ErrNoStation

// act runs one API call off Fyne's goroutine and reports a failure in a
// dialog over parent; the event stream brings the result.
func (u *UI) act(parent fyne.Window, what string, fn func(ctx context.Context, cl Client) error) {
	cl := u.conn.Client()
	if cl == nil {
		u.showError(parent, fmt.Errorf("%s: %w", what, errNoStation))
		return
	}
	u.acts.Add(1)
	u.bg.Go(func() {
		defer u.acts.Done()
		ctx, cancel := context.WithTimeout(u.ctx, 30*time.Second)
		defer cancel()
		err := fn(ctx, cl)
		if err != nil {
			fyne.Do(func() { u.showError(parent, fmt.Errorf("%s: %w", what, err)) })
		}
		u.conn.Refresh()
	})
}

func (u *UI) showError(parent fyne.Window, err error) {
	u.o.Log.Warn("tray action", "err", err)
	if parent == nil {
		parent = u.dashboardWindow()
	}
	dialog.ShowError(err, parent)
}

// Quit closes the windows; the station keeps running.
func (u *UI) Quit() { u.app.Quit() }

// closed is called on Fyne's goroutine when a window closes or the
// dashboard hides.
func (u *UI) closed() {
	if u.o.LastWindowClosed == nil || len(u.consoles) > 0 || (u.dash != nil && u.dash.shown) {
		return
	}
	u.o.LastWindowClosed()
}

// ShowError shows err over the dashboard: a tray action that failed in
// another process.
func (u *UI) ShowError(err error) {
	u.ShowDashboard()
	u.showError(u.dash.win, err)
}

// connecting is the dialog shown while a dialog or action waits for the
// station's first snapshot.
type connecting struct {
	dlg    dialog.Dialog
	reason *widget.Label
}

// whenConnected runs fn at once when the UI holds a snapshot from the
// station; before the first one it says "Connecting to the station…"
// over the dashboard and runs fn when that snapshot comes, so no dialog
// reads an empty board as the station's. Cancel drops what waits.
func (u *UI) whenConnected(fn func()) {
	if u.snap.Connected {
		fn()
		return
	}
	u.pending = append(u.pending, fn)
	if u.connecting != nil {
		return
	}
	msg := widget.NewLabel("Connecting to the station…")
	reason := widget.NewLabel("")
	reason.Wrapping = fyne.TextWrapWord
	reason.Importance = widget.LowImportance
	c := &connecting{reason: reason}
	c.dlg = dialog.NewCustom("Build Station", "Cancel", container.NewVBox(msg, reason), u.dashboardWindow())
	c.dlg.SetOnClosed(func() {
		if u.connecting == c { // cancelled by the person
			u.connecting, u.pending = nil, nil
		}
	})
	c.dlg.Resize(fyne.NewSize(420, 160))
	u.connecting = c
	u.showConnectingReason()
	c.dlg.Show()
}

// afterConnect runs fn at once when the UI holds a snapshot from the
// station, else once the first one comes, with no dialog: for a window
// that shows at once and fills in by itself.
func (u *UI) afterConnect(fn func()) {
	if u.snap.Connected {
		fn()
		return
	}
	u.later = append(u.later, fn)
}

// runPending runs what waited for a connected snapshot, or says why the
// station does not answer yet.
func (u *UI) runPending() {
	if !u.snap.Connected {
		u.showConnectingReason()
		return
	}
	later := u.later
	u.later = nil
	for _, fn := range later {
		fn()
	}
	c, pending := u.connecting, u.pending
	u.connecting, u.pending = nil, nil
	if c != nil {
		c.dlg.Hide()
	}
	for _, fn := range pending {
		fn()
	}
}

func (u *UI) showConnectingReason() {
	if u.connecting == nil {
		return
	}
	text := ""
	if u.snap.Err != "" {
		// In the dashboard's words, not the CLI's hint.
		text = "Not yet: " + stationDown(u.snap)
	}
	u.connecting.reason.SetText(text)
}
