package app

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/buildstation/buildstation/supervisor"
)

// Last-screen rendering: the transcript's tail goes through the console's
// emulator at the console's size; this much of it, enough for the last
// screens and a few hundred lines to scroll back through.
const (
	cardTail       = 256 << 10
	cardCols       = 100
	cardRows       = 30
	cardScrollback = 1000
)

// cardPanel is the dashboard's right-hand pane for one task: its state,
// its reason or summary, the last screen its latest session printed with
// the transcript's tail to scroll back through (read-only, through the
// same VT emulator as the console), and its actions — Requeue right there
// for a blocked task.
type cardPanel struct {
	u       *UI
	root    *fyne.Container
	head    *fyne.Container
	status  *widget.Label
	view    *termView
	term    *Terminal
	taskID  string
	session string // the session whose transcript shows
	// want is the session the latest load was for, attempt the task's
	// attempt: a new session or attempt loads its screen (follow).
	want    string
	attempt int
	// live is set when the screen shown was read while its session ran:
	// once it ends, follow reads it again. (Atomic: under the test
	// driver the load's fyne.Do runs on the loading goroutine.)
	live    atomic.Bool
	cancel  context.CancelFunc
	gen     int            // counts loads: only the latest one's result shows
	loading sync.WaitGroup // the loads under way (tests wait on it)
}

func (d *dashboard) newCardPanel() *cardPanel {
	p := &cardPanel{u: d.u}
	p.head = container.NewVBox()
	p.status = widget.NewLabel("")
	p.status.Importance = widget.LowImportance
	p.status.Wrapping = fyne.TextWrapWord
	p.view = newTermView(nil, nil)
	p.view.onScroll = p.repaint
	screenHead := widget.NewLabelWithStyle("Last screen (scroll for the transcript's tail)", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	// The head scrolls once it is taller than paneHead: a long block
	// reason's table must not make the window taller than the screen.
	head := container.NewVScroll(p.head)
	top := container.NewVBox(container.New(&cappedHeight{content: p.head, max: paneHead}, head), widget.NewSeparator(), screenHead)
	p.root = container.NewBorder(top, p.status, nil, nil, consoleScreen(p.view))
	p.root.Hide()
	return p
}

// paneHead is the most height the pane's head takes before it scrolls:
// the last screen keeps the rest of a 800-pixel window.
const paneHead = 380

// cappedHeight lays out its one child (a scroll of content) as tall as
// content wants, up to max.
type cappedHeight struct {
	content fyne.CanvasObject
	max     float32
}

func (l *cappedHeight) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func (l *cappedHeight) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var w float32
	for _, o := range objs {
		w = max(w, o.MinSize().Width)
	}
	return fyne.NewSize(w, min(l.content.MinSize().Height, l.max))
}

// taskOf is the task a session id belongs to: "t3" for "t3.1" or
// "t3.1.review"; a task id is its own.
func taskOf(id string) string {
	if i := strings.IndexByte(id, '.'); i > 0 {
		return id[:i]
	}
	return id
}

// OpenSession is where a click on a session leads (a notification, a deep
// link, `buildstation open ID`): its console while it runs, its card —
// last screen, reason, Requeue — once it has ended.
//
// Until a snapshot of a connected station is in (a dashboard process
// that has just started, a station restarting) it shows the dashboard,
// which says so, and goes on once one is: the board says which of the two
// it is.
func (u *UI) OpenSession(id string) {
	if !u.snap.Connected {
		u.waiting = append(u.waiting, id)
		u.ShowDashboard()
		return
	}
	if !sessionLive(u.snap, id) {
		u.ShowCard(taskOf(id))
		return
	}
	u.OpenConsole(id)
}

func sessionLive(s Snapshot, id string) bool {
	for _, si := range s.Sessions {
		if si.ID == id && si.State != supervisor.SessEnded {
			return true
		}
	}
	return false
}

// ShowCard opens the dashboard focused on task taskID's card.
func (u *UI) ShowCard(taskID string) {
	u.ShowDashboard()
	u.dash.focus(taskID)
}

// focus shows taskID's card in the pane and marks it on the board.
func (d *dashboard) focus(taskID string) {
	d.focused, d.selected = taskID, taskID
	d.pane.show(taskID)
	d.update()
}

// unfocus closes the pane.
func (d *dashboard) unfocus() {
	d.focused = ""
	d.pane.close()
	d.update()
}

func (p *cardPanel) close() {
	if p.cancel != nil {
		p.cancel()
		p.cancel = nil
	}
	if p.term != nil {
		p.term.Close()
		p.term = nil
	}
	p.taskID = ""
	p.root.Hide()
}

// show fills the pane for taskID and loads its transcript.
func (p *cardPanel) show(taskID string) {
	if p.taskID != taskID {
		p.close()
		p.taskID = taskID
		p.session, p.want, p.attempt = "", "", 0
		p.live.Store(false)
		if i := slices.IndexFunc(p.u.snap.Tasks, func(t supervisor.Task) bool { return t.ID == taskID }); i >= 0 {
			p.attempt = p.u.snap.Tasks[i].Attempt
		}
		if si, ok := SessionFor(p.u.snap, taskID); ok {
			p.want = si.ID
		}
		p.term = NewTerminal(cardCols, cardRows, cardScrollback, nil)
		p.view.offset.Store(0)
		if p.view.pix == nil {
			p.view.setSize(cardCols, cardRows) // until the layout sizes it
		}
		p.reload()
	}
	p.refresh()
	p.root.Show()
}

// refresh redraws the pane's header from the snapshot: the card may have
// moved since the pane opened.
func (p *cardPanel) refresh() {
	if p.taskID == "" {
		return
	}
	u := p.u
	var t *supervisor.Task
	for i := range u.snap.Tasks {
		if u.snap.Tasks[i].ID == p.taskID {
			t = &u.snap.Tasks[i]
		}
	}
	var objs []fyne.CanvasObject
	closeBtn := widget.NewButtonWithIcon("", theme.CancelIcon(), func() { u.dash.unfocus() })
	closeBtn.Importance = widget.LowImportance
	if t == nil {
		objs = append(objs, container.NewBorder(nil, nil, nil, closeBtn, widget.NewLabel(missingTask(u.snap, p.taskID))))
		p.head.Objects = objs
		p.head.Refresh()
		return
	}
	var si *supervisor.SessionInfo
	if s, ok := SessionFor(u.snap, t.ID); ok {
		si = &s
	}
	p.follow(*t, si)
	c := CardFor(*t, si, u.o.Now())
	title := widget.NewLabelWithStyle(c.Title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.Wrapping = fyne.TextWrapWord
	objs = append(objs, container.NewBorder(nil, nil, nil, closeBtn, title),
		container.NewHBox(stateBadge(c.Badge, c.Level), widget.NewLabel(c.Meta)))
	if c.IssueURL != "" {
		if u, err := url.Parse(c.IssueURL); err == nil {
			objs = append(objs, widget.NewHyperlink("Issue "+c.Issue, u))
		}
	}
	objs = append(objs, evidenceView(evidenceFor(*t, si), false)...)
	if line := u.dash.works[t.ID].line(); line != "" {
		objs = append(objs, wrapped(line, widget.MediumImportance))
	}
	if t.State == supervisor.TaskDone && t.Summary != "" {
		objs = append(objs, wrapped("Done: "+t.Summary, widget.SuccessImportance))
	}
	if c.Doing != "" {
		objs = append(objs, wrapped(c.Doing, widget.MediumImportance))
	}
	if c.Asks != nil {
		objs = append(objs, u.askRow(nil, c.Session, *c.Asks)...)
	}
	reload := widget.NewButtonWithIcon("Reload", theme.ViewRefreshIcon(), p.reload)
	if c.Asks == nil {
		// The card's own actions, its primary first (Merge for finished
		// work, Requeue… for a blocked task): a notice's click lands
		// here, and what the notice says is on the card is here.
		primary, more := u.dash.actions(*t, c)
		objs = append(objs, container.NewBorder(nil, nil, nil, reload, actionRow(u.dash.win, primary, more)))
	} else {
		// The request's own row above answers it.
		var btns []fyne.CanvasObject
		if c.Session != "" {
			id := c.Session
			btns = append(btns, widget.NewButtonWithIcon("Console", theme.ComputerIcon(), func() { u.OpenConsole(id) }))
		}
		btns = append(btns, reload)
		objs = append(objs, container.NewHBox(append(btns, layout.NewSpacer())...))
	}
	p.head.Objects = objs
	p.head.Refresh()
}

// follow loads the screen of the task's current attempt: after a
// requeue, attempt 2's session replaces attempt 1's last screen.
func (p *cardPanel) follow(t supervisor.Task, si *supervisor.SessionInfo) {
	switch {
	case si != nil && si.ID != p.want && si.ID != p.session:
		p.want = si.ID
	case si == nil && p.live.CompareAndSwap(true, false):
		// The screen was read while its session ran; it has ended
		// since: its last screen, with no Reload.
	case t.Attempt != p.attempt:
	default:
		return
	}
	p.attempt = t.Attempt
	p.reload()
}

func wrapped(s string, imp widget.Importance) *widget.Label {
	l := widget.NewLabel(s)
	l.Wrapping = fyne.TextWrapWord
	l.Importance = imp
	return l
}

// reload reads the tail of the task's latest transcript into a fresh
// emulator and shows its last screen.
func (p *cardPanel) reload() {
	if p.cancel != nil {
		p.cancel()
	}
	cl := p.u.conn.Client()
	if cl == nil {
		p.status.SetText("no station is running; the last screen shows once it is back")
		return
	}
	ctx, cancel := context.WithTimeout(p.u.ctx, 20*time.Second)
	p.cancel = cancel
	p.gen++
	gen, taskID, term := p.gen, p.taskID, NewTerminal(cardCols, cardRows, cardScrollback, nil)
	p.status.SetText("reading the transcript…")
	p.loading.Add(1)
	p.u.bg.Go(func() {
		defer p.loading.Done()
		defer cancel()
		tr, err := cl.Transcript(ctx, taskID, -cardTail)
		if err == nil {
			term.Write(tr.Data)
		}
		fyne.Do(func() {
			if p.gen != gen || p.taskID != taskID { // a newer load, or another card
				term.Close()
				return
			}
			if p.term != nil {
				p.term.Close()
			}
			p.term = term
			switch {
			case err != nil:
				p.status.SetText("no transcript to show: " + err.Error())
			case tr.Size == 0:
				p.status.SetText(fmt.Sprintf("session %s printed nothing", tr.SessionID))
			default:
				what := "ended"
				if tr.Live {
					what = "still running; Reload for newer output"
				}
				p.live.Store(tr.Live)
				p.session = tr.SessionID
				p.status.SetText(fmt.Sprintf("session %s (%s) · the last %s of its transcript, read-only · buildstation logs %s", tr.SessionID, what, byteSize(int64(len(tr.Data))), tr.SessionID))
			}
			p.repaintNow()
		})
	})
}

// repaint draws the window the scroll asks for; the pane is read-only and
// small, so it paints on Fyne's goroutine directly.
func (p *cardPanel) repaint() { fyne.Do(p.repaintNow) }

func (p *cardPanel) repaintNow() {
	if p.term == nil {
		return
	}
	height := int(p.view.height.Load())
	rows, total := p.term.Window(int(p.view.offset.Load()), height)
	p.view.show(wrapRows(rows, p.view.cols, height), total)
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// askRow is what a session's agent asks, with the buttons that answer it:
// Allow once and Deny…, or one button per option and Deny…, bound to the
// request shown (w.ID). parent is the window they are in (nil: the
// dashboard).
func (u *UI) askRow(parent fyne.Window, session string, w supervisor.WaitingOn) []fyne.CanvasObject {
	what := wrapped("Asks you: "+w.Line(), widget.WarningImportance)
	decide := func(do func(ctx context.Context, c Client) error) func() {
		return func() { u.act(parent, "decide "+session, do) }
	}
	var btns []fyne.CanvasObject
	if w.Kind == supervisor.AskQuestion {
		for _, o := range w.Options {
			btns = append(btns, widget.NewButton(o, decide(func(ctx context.Context, c Client) error { return c.Answer(ctx, session, w.ID, o) })))
		}
	} else {
		allow := widget.NewButtonWithIcon("Allow once", theme.ConfirmIcon(), decide(func(ctx context.Context, c Client) error { return c.Allow(ctx, session, w.ID, "") }))
		allow.Importance = widget.HighImportance
		btns = append(btns, allow)
	}
	deny := widget.NewButtonWithIcon("Deny…", theme.ContentRemoveIcon(), func() { u.showDeny(parent, session, w.ID) })
	btns = append(btns, deny, layout.NewSpacer())
	return []fyne.CanvasObject{what, container.NewHBox(btns...)}
}
