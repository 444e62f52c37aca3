package app

import (
	"context"
	"fmt"
	"image/color"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/buildstation/buildstation/supervisor"
)

// doneShown is how many of the newest done tasks the Done column lists.
const doneShown = 20

// The dashboard's default size, the one it must fit: all five columns
// side by side with the card pane closed. A column is never narrower
// than columnMin (the window's minimum follows), and the card pane is
// paneWidth wide; with it open a column keeps columnReadable and the
// board scrolls sideways, the focused card's column in view.
const (
	DashboardWidth  = 1280
	DashboardHeight = 800
	columnMin       = 120
	paneWidth       = 460
	// columnReadable is the narrowest a column gets beside the open card
	// pane: a card's title reads there; the board scrolls sideways for
	// the rest.
	columnReadable = 210
)

// dashboard is the main window: the counts, the board's columns of cards
// and the projects.
type dashboard struct {
	u        *UI
	win      fyne.Window
	figures  map[string]*canvas.Text
	cols     *fyne.Container // the five columns, side by side
	colsFit  *boardColumns   // their layout: the narrowest a column gets
	colsView *container.Scroll
	body     *fyne.Container // the window's: the pane beside the tabs
	fitFor   string          // the card the board last scrolled to
	fitOpen  bool            // the pane was open when the board was last laid out
	columns  map[supervisor.TaskState]*fyne.Container
	heads    map[supervisor.TaskState]*widget.Label
	conn     *widget.Label
	paused   *fyne.Container // a banner per paused project
	projects *fyne.Container
	// timings are the cards' countdown labels and the sessions they
	// count for; the ticker rewrites only these.
	timings []timing
	stop    context.CancelFunc // the ticker; nil while hidden
	// pane is the right-hand pane showing the focused task.
	pane    *cardPanel
	focused string
	// selected is the card the keyboard moves (arrows, j/k); order is
	// each column's task ids as drawn, for the moves.
	selected string
	order    map[supervisor.TaskState][]string
	// works are the tasks' branches as last read (task show's work),
	// for the cards' branch and diff stat.
	works map[string]workEntry
	// reading counts the reads of works under way (tests wait on it).
	reading sync.WaitGroup
	shown   bool // the window shows (closing it hides it)
	// shownKey is what the columns were drawn from (columnsKey), and
	// projectsShown what the projects were.
	shownKey      any
	projectsShown projectsKey
}

type projectsKey struct {
	connected bool
	projects  []supervisor.ProjectInfo
}

type timing struct {
	label *widget.Label
	si    supervisor.SessionInfo
}

// figureNames are the counts at the top, in order.
var figureNames = []string{"To Do", "Working", "Reviewing", "Idle", "Needs you", "Blocked", "Done"}

func (u *UI) dashboardWindow() fyne.Window {
	if u.dash == nil {
		u.dash = u.newDashboard()
	}
	return u.dash.win
}

// ShowDashboard shows the dashboard window and starts its countdowns.
func (u *UI) ShowDashboard() {
	w := u.dashboardWindow()
	u.dash.shown = true
	w.Show()
	w.RequestFocus()
	u.dash.startTicker()
	u.conn.Refresh() // the silences in the last snapshot may be old
}

func (u *UI) newDashboard() *dashboard {
	d := &dashboard{
		u:       u,
		figures: map[string]*canvas.Text{},
		columns: map[supervisor.TaskState]*fyne.Container{},
		heads:   map[supervisor.TaskState]*widget.Label{},
		works:   map[string]workEntry{},
	}
	d.win = u.app.NewWindow(u.o.Title)
	d.win.SetIcon(u.icon)
	// Closing the dashboard hides it: the tray lives on.
	d.win.SetCloseIntercept(d.hide)

	figs := container.NewGridWithColumns(len(figureNames))
	for _, name := range figureNames {
		n := canvas.NewText("0", theme.Color(theme.ColorNameForeground))
		n.TextSize = 30
		n.TextStyle.Bold = true
		n.Alignment = fyne.TextAlignCenter
		cap := widget.NewLabelWithStyle(name, fyne.TextAlignCenter, fyne.TextStyle{})
		d.figures[name] = n
		figs.Add(container.NewVBox(n, cap))
	}
	d.conn = widget.NewLabel("")
	d.conn.Importance = widget.LowImportance
	toolbar := container.NewHBox(
		widget.NewButtonWithIcon("Add Task…", theme.ContentAddIcon(), u.showAddTask),
		widget.NewButtonWithIcon("Notifications…", theme.SettingsIcon(), u.showSettings),
		layout.NewSpacer(), d.conn,
	)

	d.colsFit = &boardColumns{min: columnMin}
	cols := container.New(d.colsFit)
	for _, st := range Columns {
		head := widget.NewLabelWithStyle(ColumnTitle(st), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		head.Truncation = fyne.TextTruncateEllipsis
		list := container.NewVBox()
		d.heads[st], d.columns[st] = head, list
		cols.Add(container.NewBorder(head, nil, nil, nil, container.NewVScroll(list)))
	}
	d.cols = cols
	d.paused = container.NewVBox()
	// The columns share the width: all five show at the window's
	// default size. Beside the open card pane they keep a width a
	// title reads in, and the board scrolls sideways (fitBoard).
	d.colsView = container.NewHScroll(cols)
	d.colsView.SetMinSize(cols.MinSize()) // the window's minimum follows columnMin
	board := container.NewBorder(container.NewVBox(figs, d.paused, widget.NewSeparator()), nil, nil, nil, d.colsView)

	d.projects = container.NewVBox()
	tabs := container.NewAppTabs(
		container.NewTabItemWithIcon("Board", theme.GridIcon(), board),
		container.NewTabItemWithIcon("Projects", theme.FolderIcon(), container.NewVScroll(d.projects)),
	)
	d.pane = d.newCardPanel()
	pane := container.New(&fixedWidth{w: paneWidth}, d.pane.root)
	d.body = container.NewBorder(toolbar, nil, nil, pane, tabs)
	d.win.SetContent(d.body)
	d.win.Resize(fyne.NewSize(DashboardWidth, DashboardHeight))
	d.win.Canvas().SetOnTypedKey(d.typedKey)
	d.win.Canvas().SetOnTypedRune(d.typedRune)
	d.update()
	return d
}

func (d *dashboard) hide() {
	d.win.Hide()
	d.shown = false
	if d.stop != nil {
		d.stop()
		d.stop = nil
	}
	d.u.closed()
}

// startTicker updates the countdowns every second while the window shows,
// and re-reads the board every few seconds so the silences stay true.
// Hidden, the dashboard costs nothing.
func (d *dashboard) startTicker() {
	if d.stop != nil {
		return
	}
	ctx, cancel := context.WithCancel(d.u.ctx)
	d.stop = cancel
	tick, refresh := d.u.o.Tick, d.u.o.Refresh
	d.u.bg.Go(func() {
		t := time.NewTicker(tick)
		defer t.Stop()
		last := time.Now()
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-t.C:
				fyne.Do(d.tick)
				if now.Sub(last) >= refresh {
					last = now
					d.u.conn.Refresh()
				}
			}
		}
	})
}

// tick rewrites the countdowns.
func (d *dashboard) tick() {
	now := d.u.o.Now()
	for _, t := range d.timings {
		if s := Timing(t.si, now); s != t.label.Text {
			t.label.SetText(s)
		}
	}
}

// update redraws the window from the UI's snapshot.
func (d *dashboard) update() {
	s := d.u.snap
	d.updateFigures(s)
	d.updateConn(s)
	d.updateColumns(s)
	// The projects change with the settings, not with each event.
	if key := (projectsKey{s.Connected, s.Projects}); !reflect.DeepEqual(key, d.projectsShown) {
		d.projectsShown = key
		d.updatePaused()
		d.updateProjects()
	}
	d.pane.refresh()
	d.readWorks(s)
	d.fitBoard()
}

// fitBoard lays the board out for the card pane, open or not: beside it
// the columns keep columnReadable and the board scrolls sideways to the
// focused card's column (once per card focused: a person's own scrolling
// stays); closed, the five share the width again.
func (d *dashboard) fitBoard() {
	if d.body == nil {
		return
	}
	open := d.pane.root.Visible()
	if open == d.fitOpen && (!open || d.fitFor == d.focused) {
		return // laid out for this already: a snapshot moves nothing here
	}
	d.fitOpen = open
	// The canvas lays a changed pane out on its next frame; the columns'
	// places are needed now.
	d.body.Layout.Layout(d.body.Objects, d.body.Size())
	view := d.colsView.Size()
	d.colsFit.min = columnMin
	if open {
		// As many whole columns of at least columnReadable as the view
		// holds, sharing it: scrolled column by column, none is ever cut
		// in half at the edge.
		gap := theme.Padding()
		k := max(1, int((view.Width+gap)/(columnReadable+gap)))
		d.colsFit.min = max(columnReadable, (view.Width-gap*float32(k-1))/float32(k))
	}
	d.cols.Resize(d.cols.MinSize().Max(view))
	if !open {
		d.fitFor = ""
		d.colsView.ScrollToOffset(fyne.NewPos(0, 0))
		return
	}
	d.fitFor = d.focused
	i := slices.IndexFunc(d.u.snap.Tasks, func(t supervisor.Task) bool { return t.ID == d.focused })
	if i < 0 {
		return
	}
	c := slices.Index(Columns, d.u.snap.Tasks[i].State)
	if c < 0 || c >= len(d.cols.Objects) {
		return
	}
	col := d.cols.Objects[c]
	off := d.colsView.Offset
	x, w := col.Position().X, col.Size().Width
	switch {
	case x < off.X:
		off.X = x
	case x+w > off.X+view.Width:
		// Scrolled to the first column's edge that shows it whole: no
		// column cut in half at the left.
		off.X = x
		for _, o := range d.cols.Objects {
			if p := o.Position().X; p >= x+w-view.Width-0.5 && p < off.X {
				off.X = p
			}
		}
	}
	off.X = max(0, min(off.X, d.cols.Size().Width-view.Width))
	d.colsView.ScrollToOffset(off)
}

// updateFigures sets the count of tasks in each state, coloured by its
// level when there are any; a dash until the board has answered, since
// zero would be a claim.
func (d *dashboard) updateFigures(s Snapshot) {
	c := Count(s)
	set := func(name string, n int, l Level) {
		f := d.figures[name]
		f.Text = fmt.Sprint(n)
		if !s.Connected {
			f.Text = "—" // not known yet: not zero
		}
		f.Color = theme.Color(theme.ColorNameForeground)
		if n > 0 && l != LevelNone {
			f.Color = LevelColor(l)
		}
		f.Refresh()
	}
	set("To Do", c.Todo, LevelNone)
	set("Working", c.Working, LevelWorking)
	set("Reviewing", c.Reviewing, LevelReviewing)
	set("Idle", c.Idle, LevelAttention)
	set("Needs you", c.Permission, LevelAttention)
	set("Blocked", c.Blocked, LevelBlocked)
	set("Done", c.Done, LevelNone)
}

// updateConn says how the tray is connected to its station and board,
// as a warning when the board is away.
func (d *dashboard) updateConn(s Snapshot) {
	d.conn.Importance = widget.LowImportance
	if away := BoardAway(s); away != "" {
		d.conn.Importance = widget.WarningImportance
		d.conn.SetText(away)
	} else if s.Connected {
		d.conn.SetText("connected")
	} else if s.Err != "" {
		d.conn.SetText(stationDown(s))
	} else {
		d.conn.SetText("connecting…")
	}
}

// stationDown is the status line while no station answers: a few words
// a desktop user acts on (the tray starts a stopped station), not the
// CLI's hint with the home's path; any other error, short enough to fit.
func stationDown(s Snapshot) string {
	if !s.StoppedAt.IsZero() || strings.Contains(s.Err, "no station is running") {
		return StationGone(s) + " — " + StartStationLine + " from the tray"
	}
	return clip(s.Err, 60)
}

// updateColumns redraws the board's columns of cards, the done column cut
// to its newest doneShown; the cards' timings are collected afresh for
// the ticker.
func (d *dashboard) updateColumns(s Snapshot) {
	now := d.u.o.Now()
	key := d.columnsKey(s, now)
	if reflect.DeepEqual(key, d.shownKey) {
		// The cards would come out the same: a session that prints
		// sends a snapshot every 150 ms, only its clock has moved, and
		// rebuilding every card each time made widgets faster than
		// Fyne's renderer cache lets them go (a minute), 25 MB of heap
		// a minute and the GC's room on top. The countdowns take the
		// new sessions instead.
		for i, t := range d.timings {
			if si, ok := SessionFor(s, t.si.TaskID); ok {
				d.timings[i].si = si.Projected()
			}
		}
		d.tick()
		return
	}
	d.shownKey = key
	d.timings = d.timings[:0]
	d.order = map[supervisor.TaskState][]string{}
	byCol := map[supervisor.TaskState][]supervisor.Task{}
	for _, t := range s.Tasks {
		byCol[t.State] = append(byCol[t.State], t)
	}
	if done := byCol[supervisor.TaskDone]; len(done) > doneShown {
		byCol[supervisor.TaskDone] = done[len(done)-doneShown:]
	}
	for _, st := range Columns {
		tasks := byCol[st]
		if s.Connected {
			d.heads[st].SetText(fmt.Sprintf("%s (%d)", ColumnTitle(st), len(tasks)))
		} else {
			d.heads[st].SetText(ColumnTitle(st)) // no count it cannot know
		}
		objs := make([]fyne.CanvasObject, 0, len(tasks)+1)
		if len(tasks) == 0 && s.Connected {
			empty := widget.NewLabel(emptyColumn[st])
			empty.Importance = widget.LowImportance
			empty.Wrapping = fyne.TextWrapWord
			objs = append(objs, empty)
		}
		for i := range tasks {
			// Newest done first; the other columns oldest first, as the
			// scheduler takes them.
			t := tasks[i]
			if st == supervisor.TaskDone {
				t = tasks[len(tasks)-1-i]
			}
			objs = append(objs, d.card(t, now))
			d.order[st] = append(d.order[st], t.ID)
		}
		d.columns[st].Objects = objs
		d.columns[st].Refresh()
	}
}

// columnsKey is all the cards show but their countdowns: equal keys draw
// equal columns.
func (d *dashboard) columnsKey(s Snapshot, now time.Time) any {
	type cardKey struct {
		t  supervisor.Task
		c  Card
		ev evidence
	}
	var cards []cardKey
	for _, t := range s.Tasks {
		var si *supervisor.SessionInfo
		if ss, ok := SessionFor(s, t.ID); ok {
			ss = ss.Projected()
			si = &ss
		}
		c := CardFor(t, si, now)
		c.Timing = ""
		cards = append(cards, cardKey{t, c, evidenceFor(t, si)})
	}
	return struct {
		connected bool
		focused   string
		selected  string
		bg        color.Color
		cards     []cardKey
		works     map[string]workEntry
		github    []string // projects whose done cards offer Open pull request
	}{s.Connected, d.focused, d.selected, theme.Color(theme.ColorNameInputBackground), cards, d.worksShown(), githubProjects(s)}
}

// worksShown is what the cards show of the tasks' branches: the work and
// cost read, not what each read was for, nor a read under way.
func (d *dashboard) worksShown() map[string]workEntry {
	out := map[string]workEntry{}
	for id, e := range d.works {
		if e.work != nil || e.cost != 0 {
			out[id] = workEntry{work: e.work, cost: e.cost}
		}
	}
	return out
}

// emptyColumn is what an empty column says.
var emptyColumn = map[supervisor.TaskState]string{
	supervisor.TaskTodo:    "Nothing queued. Add Task… puts work here.",
	supervisor.TaskWorking: "No agent is working.",
	supervisor.TaskReview:  "Nothing to review.",
	supervisor.TaskBlocked: "Nothing is blocked.",
	supervisor.TaskDone:    "Nothing finished yet.",
}

// updatePaused shows each paused project above the board, with why and a
// Resume button: a paused queue explains an idle board.
func (d *dashboard) updatePaused() {
	var objs []fyne.CanvasObject
	if d.u.snap.Connected && len(d.u.snap.Projects) == 0 {
		// An empty station: the board has nothing to show until a
		// project exists, so say how to add one instead.
		agents := "NAME"
		if len(d.u.snap.AgentNames) > 0 {
			agents = strings.Join(d.u.snap.AgentNames, "|")
		}
		// The invitation is a button (docs/install.md says to click
		// it), the terminal's way beside it.
		add := widget.NewButtonWithIcon(FirstProjectLine, theme.ContentAddIcon(), d.u.showAddProject)
		add.Importance = widget.HighImportance
		l := widget.NewLabel("A folder and the agent that works in it. In a terminal: buildstation project add FOLDER [--agent " + agents + " | --command PROGRAM ARGS…]")
		l.Wrapping = fyne.TextWrapWord
		objs = append(objs, container.NewBorder(nil, nil, add, nil, l))
	}
	for _, p := range d.u.snap.Projects {
		if !p.Paused {
			continue
		}
		name := p.Name
		why := "paused"
		if p.PauseReason != "" {
			why = "paused: " + p.PauseReason
		}
		l := widget.NewLabel(fmt.Sprintf("Project %s is %s — its queue starts nothing new.", name, why))
		l.Wrapping = fyne.TextWrapWord
		l.Importance = widget.WarningImportance
		resume := widget.NewButtonWithIcon("Resume", theme.MediaPlayIcon(), func() {
			d.u.act(d.win, "resume "+name, func(ctx context.Context, cl Client) error { return cl.Resume(ctx, name) })
		})
		objs = append(objs, container.NewBorder(nil, nil, nil, resume, l))
	}
	d.paused.Objects = objs
	d.paused.Refresh()
}

// boardColumns lays its columns side by side in equal shares of the
// width, however narrow: a column's cards wrap and cut their text to fit
// rather than widen the board past the window (a card wider than its
// share is clipped by its column's scroll). Its minimum is min a column.
type boardColumns struct{ min float32 }

func (l *boardColumns) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if len(objs) == 0 {
		return
	}
	gap := theme.Padding()
	w := (size.Width - gap*float32(len(objs)-1)) / float32(len(objs))
	for i, o := range objs {
		o.Move(fyne.NewPos(float32(i)*(w+gap), 0))
		o.Resize(fyne.NewSize(w, size.Height))
	}
}

func (l *boardColumns) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var h float32
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	n := float32(len(objs))
	return fyne.NewSize(n*l.min+theme.Padding()*max(n-1, 0), h)
}

// fixedWidth gives its one child a fixed width (and nothing while the
// child is hidden).
type fixedWidth struct{ w float32 }

func (l *fixedWidth) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func (l *fixedWidth) MinSize(objs []fyne.CanvasObject) fyne.Size {
	for _, o := range objs {
		if o.Visible() {
			return fyne.NewSize(l.w, o.MinSize().Height)
		}
	}
	return fyne.NewSize(0, 0)
}

// stateBadge is a coloured pill with the state's name.
func stateBadge(text string, l Level) fyne.CanvasObject {
	bg := canvas.NewRectangle(LevelColor(l))
	bg.CornerRadius = 8
	label := canvas.NewText(" "+text+" ", color.White)
	label.TextSize = theme.CaptionTextSize()
	label.TextStyle.Bold = true
	return container.NewStack(bg, container.New(layout.NewCustomPaddedLayout(2, 2, 6, 6), label))
}
