package app

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"io"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/client"
)

// Console rendering limits: at most ~30 frames a second however fast the
// session prints (frames coalesce), and this much history to scroll back.
const (
	frameInterval    = time.Second / 30
	scrollbackLines  = 2000
	replayQuietAfter = 500 * time.Millisecond
)

// console is one session's console window: the attach stream feeds a VT
// emulator, a render goroutine paints it into the window at most 30 times
// a second and only after new output, and keys go back to the session.
// Closing the window detaches; the session goes on.
type console struct {
	u      *UI
	id     string
	win    fyne.Window
	view   *termView
	term   *Terminal
	status *widget.Label
	nudge  *widget.Button // only while the session lives (follow)
	// asks shows what the session's agent asks, with Allow once and
	// Deny… bound to that request, while one waits (follow); askShown is
	// the id of the request it shows.
	asks     *fyne.Container
	askShown string
	base     string // the status line when following the output (Fyne's goroutine)
	cancel   context.CancelFunc
	kick     chan struct{}
	in       chan []byte // typed bytes, in order, for the writer goroutine
	conn     atomic.Pointer[client.AttachConn]
	// live is set once the replay has been read: the emulator's answers
	// to queries in the replay are stale and must not be typed into the
	// session.
	live atomic.Bool
	// attachLater starts the attach once the UI is connected (Fyne's
	// goroutine); nil once started.
	attachLater func()
}

// OpenConsole shows session id's console, opening it if needed.
func (u *UI) OpenConsole(id string) {
	if c, ok := u.consoles[id]; ok {
		c.win.Show()
		c.win.RequestFocus()
		return
	}
	c := &console{u: u, id: id, kick: make(chan struct{}, 1), in: make(chan []byte, 256)}
	c.term = NewTerminal(100, 30, scrollbackLines, c.reply)
	c.view = newTermView(c.input, c.resized)
	c.view.onScroll = c.poke
	c.status = widget.NewLabel("connecting to the station…")
	c.win = u.app.NewWindow(u.consoleTitle(id))
	c.win.SetIcon(u.icon)
	c.nudge = widget.NewButtonWithIcon("Nudge now", theme.MailSendIcon(), func() {
		u.act(c.win, "nudge "+id, func(ctx context.Context, cl Client) error { return cl.Nudge(ctx, id) })
	})
	c.nudge.Importance = widget.LowImportance
	c.asks = container.NewVBox()
	c.follow()
	top := container.NewVBox(container.NewBorder(nil, nil, nil, c.nudge, c.status), c.asks)
	c.win.SetContent(container.NewBorder(top, nil, nil, nil, consoleScreen(c.view)))
	c.win.Resize(fyne.NewSize(960, 600))
	ctx, cancel := context.WithCancel(u.ctx)
	c.cancel = cancel
	c.win.SetOnClosed(func() {
		cancel()
		delete(u.consoles, id)
		u.closed()
	})
	u.consoles[id] = c
	c.win.Show()
	c.win.Canvas().Focus(c.view)
	u.bg.Go(func() { c.render(ctx) })
	// A console the tray asks for is often the first thing a dashboard
	// process it has just started shows, before the station's first
	// answer: it attaches once the UI is connected (apply), instead of
	// saying for good that no station runs.
	c.attachLater = func() { u.bg.Go(func() { c.attach(ctx) }) }
	c.attachWhenConnected()
}

// attachWhenConnected starts the attach once the UI holds a snapshot from
// the station.
func (c *console) attachWhenConnected() {
	if c.attachLater == nil || !c.u.snap.Connected {
		return
	}
	start := c.attachLater
	c.attachLater = nil
	start()
}

// follow offers the console's actions only while its session lives: an
// ended session takes no nudge.
func (c *console) follow() {
	var asks *supervisor.WaitingOn
	for _, si := range c.u.snap.Sessions {
		if si.ID == c.id && si.State != supervisor.SessEnded {
			asks = si.WaitingOn
		}
	}
	// An agent that asks waits on a person, not a nudge: an Enter typed
	// into its dialog would approve whatever it shows.
	if sessionLive(c.u.snap, c.id) && asks == nil {
		c.nudge.Show()
	} else {
		c.nudge.Hide()
	}
	switch {
	case asks == nil && c.askShown != "":
		c.askShown = ""
		c.asks.Objects = nil
		c.asks.Hide()
	case asks != nil && (asks.ID != c.askShown || len(c.asks.Objects) == 0):
		c.askShown = asks.ID
		c.asks.Objects = c.u.askRow(c.win, c.id, *asks)
		c.asks.Show()
		c.asks.Refresh()
	}
}

func (u *UI) consoleTitle(id string) string {
	for _, si := range u.snap.Sessions {
		if si.ID == id {
			return fmt.Sprintf("Console %s — %s", id, taskTitle(u.snap, si.TaskID))
		}
	}
	return "Console " + id
}

// attach reads the session's output into the emulator until it ends or
// the window closes.
func (c *console) attach(ctx context.Context) {
	defer c.term.Close()
	cl := c.u.conn.Client()
	if cl == nil {
		c.setStatus("no station is running; the console will not update")
		return
	}
	conn, err := cl.Attach(ctx, c.id)
	if err != nil {
		c.setStatus("cannot attach: " + err.Error())
		return
	}
	defer conn.Close()
	c.conn.Store(conn)
	if cols, rows := c.term.Size(); cols > 0 {
		_ = conn.Resize(uint16(cols), uint16(rows))
	}
	c.setStatus("attached to " + c.id + " · typing goes to the session · close the window to detach")
	time.AfterFunc(replayQuietAfter, func() { c.live.Store(true) })
	c.u.bg.Go(func() { c.write(ctx, conn) })
	buf := make([]byte, 32<<10)
	for {
		n, err := conn.Read(buf)
		if n > 0 {
			c.term.Write(buf[:n])
			c.poke()
		}
		if err != nil {
			if ctx.Err() == nil {
				if errors.Is(err, io.EOF) {
					c.setStatus("the session has ended; this is its last screen")
				} else {
					c.setStatus("console closed: " + err.Error())
				}
			}
			return
		}
	}
}

// consoleScreen puts a terminal view on the console's own dark
// background, with a margin, in a dark theme whatever the desktop's.
func consoleScreen(v fyne.CanvasObject) fyne.CanvasObject {
	bg := canvas.NewRectangle(defaultBg)
	return container.NewThemeOverride(container.NewStack(bg, container.New(layout.NewCustomPaddedLayout(6, 6, 10, 10), v)), consoleTheme{})
}

// consoleTheme is the default theme's dark variant with the console's
// colours.
type consoleTheme struct{}

func (consoleTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	switch n {
	case theme.ColorNameBackground:
		return defaultBg
	case theme.ColorNameForeground:
		return defaultFg
	}
	return theme.DefaultTheme().Color(n, theme.VariantDark)
}

func (consoleTheme) Font(s fyne.TextStyle) fyne.Resource     { return theme.DefaultTheme().Font(s) }
func (consoleTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return theme.DefaultTheme().Icon(n) }
func (consoleTheme) Size(n fyne.ThemeSizeName) float32       { return theme.DefaultTheme().Size(n) }

// poke asks for a frame; many pokes between two frames make one.
func (c *console) poke() {
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

// render paints a frame after each poke, then rests for a frame's time:
// no output, no work. It waits for each frame to be drawn before it makes
// the next (fyne.DoAndWait), so at most one frame is ever pending on the
// UI thread however fast the session prints; pokes in between merge into
// one. A frame converts only the visible lines.
func (c *console) render(ctx context.Context) {
	scrolled := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.kick:
		}
		rows, total := c.term.Window(int(c.view.offset.Load()), int(c.view.height.Load()))
		fyne.DoAndWait(func() {
			if ctx.Err() != nil {
				return
			}
			c.view.show(rows, total)
			if back := c.view.offset.Load() > 0; back != scrolled {
				scrolled = back
				c.status.SetText(c.statusText(back))
			}
			if f := c.u.o.OnConsoleFrame; f != nil {
				f(c.id, rows)
			}
		})
		select {
		case <-ctx.Done():
			return
		case <-time.After(frameInterval):
		}
	}
}

func (c *console) setStatus(s string) {
	fyne.Do(func() {
		c.base = s
		c.status.SetText(c.statusText(c.view.offset.Load() > 0))
	})
}

// statusText is the status line: what the console is attached to, and
// whether the view is scrolled back from the newest output.
func (c *console) statusText(back bool) string {
	if back {
		return "scrolled back · scroll down for the newest output · " + c.base
	}
	return c.base
}

// input queues what the person typed for the session; keys typed before
// the console is attached, or faster than the station takes them (256
// writes behind), are dropped.
func (c *console) input(p []byte) {
	if c.conn.Load() == nil {
		return
	}
	select {
	case c.in <- p:
	default:
	}
}

// write types queued keys into the session, in order.
func (c *console) write(ctx context.Context, conn *client.AttachConn) {
	for {
		select {
		case <-ctx.Done():
			return
		case p := <-c.in:
			if _, err := conn.Write(p); err != nil {
				return
			}
		}
	}
}

// reply types the emulator's answers to the program's queries.
func (c *console) reply(p []byte) {
	if conn := c.conn.Load(); conn != nil && c.live.Load() {
		_, _ = conn.Write(p)
	}
}

// resized follows the window: the emulator and the session's PTY take the
// new size.
func (c *console) resized(cols, rows int) {
	c.term.Resize(cols, rows)
	if conn := c.conn.Load(); conn != nil {
		go conn.Resize(uint16(cols), uint16(rows))
	}
	c.poke()
}
