package app

import (
	"context"
	"fmt"
	"iter"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api"
	"github.com/buildstation/buildstation/supervisor/api/apitest"
	"github.com/buildstation/buildstation/supervisor/client"
)

// newTestUI makes a UI on Fyne's test app, connected to client without
// running the connection goroutine: the test hands it snapshots itself.
func newTestUI(t *testing.T, client Client, now time.Time) *UI {
	t.Helper()
	a := newTestApp(t)
	// The ticker stays out of the way (an hour): under the test driver
	// fyne.Do runs on the ticker's goroutine, beside the test's own calls;
	// tests that want a tick call d.tick themselves.
	u := New(Options{App: a, Connect: func(context.Context, bool) (Client, error) { return client, nil }, Now: func() time.Time { return now }, Tick: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	// A window painted by one test's goroutine while the next test runs
	// races on Fyne's shared state: every test waits for its own.
	t.Cleanup(func() {
		cancel()
		done := make(chan struct{})
		go func() { u.bg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("the UI's goroutines did not end with its context")
		}
	})
	u.ctx = ctx
	u.conn.setClient(client)
	return u
}

func boardSnapshot(now time.Time) Snapshot {
	next := now.Add(108 * time.Second)
	blocked := task("t3", supervisor.TaskBlocked)
	blocked.Reason = "idle for 10m; no commits, no CPU"
	return Snapshot{
		Connected: true,
		Tasks: []supervisor.Task{task("t1", supervisor.TaskTodo), task("t2", supervisor.TaskWorking), blocked,
			task("t4", supervisor.TaskDone), task("t5", supervisor.TaskReview)},
		Sessions: []supervisor.SessionInfo{
			{ID: "t2.1", TaskID: "t2", State: supervisor.SessWorking, LastOutputAt: now.Add(-192 * time.Second), NextAt: &next, NextAction: "nudge"},
			{ID: "t5.1", TaskID: "t5", Kind: "review", State: supervisor.SessReviewing, LastOutputAt: now},
		},
		Projects: []supervisor.ProjectInfo{{Name: "web", Path: "/src/web", Agent: "claude", IdleWindow: "5m", BlockWindow: "5m", ReviewIdleWindow: "10m", Concurrency: 1}},
	}
}

// texts collects the text of every label, button and canvas text under o.
func texts(o fyne.CanvasObject) []string {
	var out []string
	walk(o, func(o fyne.CanvasObject) bool {
		switch v := o.(type) {
		case *widget.Label:
			out = append(out, v.Text)
		case *widget.Button:
			out = append(out, v.Text)
		}
		return false
	})
	return out
}

// walk visits o and everything inside it until visit returns true.
func walk(o fyne.CanvasObject, visit func(fyne.CanvasObject) bool) bool {
	if o == nil {
		return false
	}
	if visit(o) {
		return true
	}
	switch v := o.(type) {
	case *fyne.Container:
		for _, c := range v.Objects {
			if walk(c, visit) {
				return true
			}
		}
	case fyne.Widget:
		if _, ok := o.(*widget.Label); ok {
			return false
		}
		for _, c := range test.WidgetRenderer(v).Objects() {
			if walk(c, visit) {
				return true
			}
		}
	}
	return false
}

func findButton(t *testing.T, o fyne.CanvasObject, text string) *widget.Button {
	t.Helper()
	var found *widget.Button
	walk(o, func(o fyne.CanvasObject) bool {
		if b, ok := o.(*widget.Button); ok && b.Text == text {
			found = b
			return true
		}
		return false
	})
	if found == nil {
		t.Fatalf("no %q button", text)
	}
	return found
}

// cardActions are a card's primary button and the items of its "…"
// menu, opened as a click does.
func cardActions(t *testing.T, win fyne.Window, card fyne.CanvasObject) []string {
	t.Helper()
	var out []string
	walk(card, func(o fyne.CanvasObject) bool {
		if b, ok := o.(*widget.Button); ok && b.Text != "" {
			out = append(out, b.Text)
		}
		return false
	})
	for label := range cardMenu(t, win, card) {
		out = append(out, label)
	}
	return out
}

// cardMenu opens a card's "…" menu as a click does and returns its items
// by label, in order (tapping one picks it); empty when the card has no
// menu.
func cardMenu(t *testing.T, win fyne.Window, card fyne.CanvasObject) iter.Seq2[string, fyne.Tappable] {
	t.Helper()
	var more *widget.Button
	walk(card, func(o fyne.CanvasObject) bool {
		if b, ok := o.(*widget.Button); ok && b.Text == "" && b.Icon == theme.MoreHorizontalIcon() {
			more = b
			return true
		}
		return false
	})
	if more == nil {
		return func(func(string, fyne.Tappable) bool) {}
	}
	test.Tap(more)
	var pm *widget.PopUpMenu
	walk(win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) bool {
		pm, _ = o.(*widget.PopUpMenu)
		return pm != nil
	})
	if pm == nil {
		t.Fatalf("the … button opened %T, not a menu", win.Canvas().Overlays().Top())
	}
	return func(yield func(string, fyne.Tappable) bool) {
		defer pm.Hide()
		for _, it := range pm.Items {
			var label string
			walk(it, func(o fyne.CanvasObject) bool {
				if tx, ok := o.(*canvas.Text); ok && tx.Text != "" {
					label = tx.Text
					return true
				}
				return false
			})
			if tap, ok := it.(fyne.Tappable); ok && !yield(label, tap) {
				return
			}
		}
	}
}

// pickMenu picks the item labelled label from a card's "…" menu.
func pickMenu(t *testing.T, win fyne.Window, card fyne.CanvasObject, label string) {
	t.Helper()
	var labels []string
	for l, tap := range cardMenu(t, win, card) {
		if l == label {
			tap.Tapped(&fyne.PointEvent{})
			return
		}
		labels = append(labels, l)
	}
	t.Fatalf("the card's menu has no %q, only %q", label, labels)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestDashboardShowsBoard(t *testing.T) {
	now := t0
	u := newTestUI(t, newFake(), now)
	u.apply(boardSnapshot(now))
	u.ShowDashboard()
	d := u.dash
	defer d.hide()
	for name, want := range map[string]string{"To Do": "1", "Working": "1", "Reviewing": "1", "Idle": "0", "Blocked": "1", "Done": "1"} {
		if got := d.figures[name].Text; got != want {
			t.Errorf("figure %s = %s, want %s", name, got, want)
		}
	}
	all := texts(d.win.Content())
	for _, want := range []string{"To Do (1)", "In progress (1)", "Review (1)", "Blocked (1)", "Done (1)",
		"Task t2", "silent 3 min · nudge in 2 min", "idle for 10m; no commits, no CPU", "Requeue…"} {
		if !contains(all, want) {
			t.Errorf("dashboard lacks %q; it shows %q", want, all)
		}
	}
	// A tick half a minute later the countdown moved.
	u.o.Now = func() time.Time { return now.Add(30 * time.Second) }
	d.tick()
	if !contains(texts(d.win.Content()), "silent 4 min · nudge in 1 min") {
		t.Errorf("tick did not move the countdown: %q", texts(d.win.Content()))
	}
}

func TestRequeueCallsTheAPI(t *testing.T) {
	fake := newFake()
	u := newTestUI(t, fake, t0)
	u.apply(boardSnapshot(t0))
	u.ShowDashboard()
	defer u.dash.hide()
	c := u.dash.win.Canvas()
	test.Tap(findButton(t, c.Content(), "Requeue…"))
	dlg := c.Overlays().Top()
	if dlg == nil {
		t.Fatal("no requeue dialog")
	}
	var note *widget.Entry
	walk(dlg, func(o fyne.CanvasObject) bool {
		note, _ = o.(*widget.Entry)
		return note != nil
	})
	if note == nil {
		t.Fatal("the requeue dialog has no note field")
	}
	test.Type(note, "try the lock timeout")
	test.Tap(findButton(t, dlg, "Requeue"))
	select {
	case got := <-fake.calls:
		if want := (call{"Requeue", "t3", "try the lock timeout"}); got != want {
			t.Errorf("call = %+v, want %+v", got, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Requeue was not called")
	}
}

func TestCardActions(t *testing.T) {
	fake := newFake()
	u := newTestUI(t, fake, t0)
	u.apply(boardSnapshot(t0))
	u.ShowDashboard()
	defer u.dash.hide()
	card := u.dash.columns[supervisor.TaskWorking].Objects[0]
	pickMenu(t, u.dash.win, card, "Nudge now")
	if got := <-fake.calls; got != (call{"Nudge", "t2.1", ""}) {
		t.Errorf("Nudge now called %+v", got)
	}
}

func TestTrayMenu(t *testing.T) {
	u := newTestUI(t, newFake(), t0)
	u.apply(boardSnapshot(t0))
	m := u.TrayMenu()
	var labels []string
	for _, it := range m.Items {
		if !it.IsSeparator {
			labels = append(labels, it.Label)
		}
	}
	want := []string{
		"Working 1 · Reviewing 1 · Idle 0 · Needs you 0 · Blocked 1",
		"Task t2 — working", "Task t5 — reviewing",
		"Open Dashboard", "Add Task…", "Pause queue (all projects)", "Notification settings…",
		"Quit tray (station keeps running)",
	}
	if strings.Join(labels, "\n") != strings.Join(want, "\n") {
		t.Errorf("menu:\n%s\nwant:\n%s", strings.Join(labels, "\n"), strings.Join(want, "\n"))
	}
	if m.Items[0].Disabled || m.Items[0].Action == nil {
		t.Error("the counts line should be readable (enabled) and open the dashboard")
	}
	u.apply(Snapshot{Connected: false, Err: "no station"})
	if got := u.TrayMenu().Items[0].Label; !strings.Contains(got, "No station") {
		t.Errorf("offline menu starts with %q", got)
	}
}

func TestNotificationSettings(t *testing.T) {
	u := newTestUI(t, newFake(), t0)
	got := make(chan supervisor.Notice, 4)
	u.o.Notifier = notifierFunc(func(n supervisor.Notice) error { got <- n; return nil })
	u.app.Preferences().SetBool(PrefNotifyNudge, false)
	u.notice(supervisor.Notice{Kind: supervisor.NoticeNudge, SessionID: "s1"})
	u.notice(supervisor.Notice{Kind: supervisor.NoticeBlock, SessionID: "s2"})
	if n := <-got; n.SessionID != "s2" {
		t.Errorf("notified %+v; the nudge was turned off", n)
	}
}

type notifierFunc func(supervisor.Notice) error

func (f notifierFunc) Notify(n supervisor.Notice) error { return f(n) }

// TestConnFollowsEvents: the connection reads the board, then folds
// events into new snapshots, and notices go to the notifier hook.
func TestConnFollowsEvents(t *testing.T) {
	fake := newFake()
	fake.tasks = []supervisor.Task{task("t1", supervisor.TaskTodo)}
	snaps := make(chan Snapshot, 16)
	notices := make(chan supervisor.Notice, 4)
	c := newConn(func(context.Context, bool) (Client, error) { return fake, nil }, nil)
	c.log = discardLog()
	c.coalesce = time.Millisecond
	c.onSnap = func(s Snapshot) { snaps <- s }
	c.onNotice = func(n supervisor.Notice) { notices <- n }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.Run(ctx)
	if s := <-snaps; !s.Connected || len(s.Tasks) != 1 {
		t.Fatalf("first snapshot %+v", s)
	}
	moved := task("t1", supervisor.TaskWorking)
	si := sess("t1.1", "t1", supervisor.SessWorking)
	fake.events <- supervisor.Event{Kind: supervisor.EventTask, Task: &moved}
	fake.events <- supervisor.Event{Kind: supervisor.EventSession, Session: &si}
	fake.events <- supervisor.Event{Kind: supervisor.EventNotice, Notice: &supervisor.Notice{Kind: supervisor.NoticeNudge, SessionID: "t1.1"}}
	for s := range snaps {
		if len(s.Sessions) == 1 && s.Tasks[0].State == supervisor.TaskWorking {
			break
		}
	}
	if n := <-notices; n.SessionID != "t1.1" {
		t.Errorf("notice %+v", n)
	}
	ended := si
	ended.State = supervisor.SessEnded
	fake.events <- supervisor.Event{Kind: supervisor.EventSession, Session: &ended}
	for s := range snaps {
		if len(s.Sessions) == 0 {
			break
		}
	}
	// The stream ends: the station stopped. The tray says so.
	close(fake.events)
	for s := range snaps {
		if !s.Connected {
			break
		}
	}
}

// TestMain lets the test binary be its sessions' agent (apitest.Agent).
func TestMain(m *testing.M) { apitest.Main(m) }

// TestConsoleAttaches opens a console on a real session (the station
// served over the real API, its agent this test binary): the screen so far
// is rendered, and the window's size and the keys typed reach the agent.
func TestConsoleAttaches(t *testing.T) {
	env := apitest.Start(t, apitest.Rig{Projects: []string{"web"}, Command: apitest.Agent(t), Run: true})
	if _, err := env.Station.Tasks.AddTask(t.Context(), supervisor.NewTask{Project: "web", Title: "one"}); err != nil {
		t.Fatal(err)
	}
	s, _ := env.Session(t, "t1")
	srv := httptest.NewServer(api.NewServer(apitest.Areas(env.Station), "tok", nil).Handler())
	defer srv.Close()
	client := &client.Client{BaseURL: srv.URL, Token: "tok"}
	u := newTestUI(t, client, t0)
	u.apply(Snapshot{Connected: true, Tasks: []supervisor.Task{{ID: "t1", Project: "web", Title: "one", State: supervisor.TaskWorking}}, Sessions: []supervisor.SessionInfo{s}})
	u.OpenConsole(s.ID)
	c := u.consoles[s.ID]
	screen := func() string { return RowsText(c.term.Rows()) }
	shows := func(want string) {
		t.Helper()
		// Waiting on the network, not a timer.
		testwait.Eventually(t, time.Minute, func() bool { return strings.Contains(screen(), want) },
			fmt.Sprintf("the console to show %q", want), testwait.Later(screen))
	}
	shows("ready") // said before the console opened: the replay
	typeLine := func(text string) {
		for _, r := range text {
			c.view.TypedRune(r)
		}
		c.view.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	}
	typeLine("y")
	shows(apitest.Got([]byte("y")))
	typeLine("size")
	cols, rows := c.term.Size()
	shows(fmt.Sprintf("size %dx%d", cols, rows))

	c.win.Close()
	if got, ok := env.Station.Sessions.Session(s.ID); !ok || got.State == supervisor.SessEnded {
		t.Errorf("the session after its console closed: %+v, %v; want it running", got, ok)
	}
}

// A notice the tray showed is withdrawn once an event ends what it
// announced: here the nudged session works again.
func TestConnWithdrawsNoticesThatAreOver(t *testing.T) {
	fake := newFake()
	fake.tasks = []supervisor.Task{task("t1", supervisor.TaskWorking)}
	over := make(chan supervisor.Notice, 4)
	c := newConn(func(context.Context, bool) (Client, error) { return fake, nil }, nil)
	c.log = discardLog()
	c.coalesce = time.Millisecond
	c.onSnap = func(Snapshot) {}
	c.onNotice = func(supervisor.Notice) {}
	c.onNoticeOver = func(n supervisor.Notice) { over <- n }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.Run(ctx)
	nudged := sess("t1.1", "t1", supervisor.SessNudged)
	working := sess("t1.1", "t1", supervisor.SessWorking)
	fake.events <- supervisor.Event{Kind: supervisor.EventNotice, Notice: &supervisor.Notice{Kind: supervisor.NoticeNudge, TaskID: "t1", SessionID: "t1.1"}}
	fake.events <- supervisor.Event{Kind: supervisor.EventSession, Session: &nudged}
	fake.events <- supervisor.Event{Kind: supervisor.EventSession, Session: &working}
	select {
	case n := <-over:
		if n.Kind != supervisor.NoticeNudge || n.SessionID != "t1.1" {
			t.Errorf("withdrew %+v", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the nudge was not withdrawn once the session worked again")
	}
	select {
	case n := <-over:
		t.Errorf("withdrew %+v too", n)
	case <-time.After(100 * time.Millisecond):
	}
}

// A finished notice ("Not merged yet: it is ready to merge") is withdrawn
// once the task's work is merged, wherever the merge was made (the diff
// window, the CLI): the task's event after the merge is checked against
// its work. A task event while the work waits keeps it.
func TestConnWithdrawsTheFinishedNoticeOnceMerged(t *testing.T) {
	fake := newFake()
	done := task("t4", supervisor.TaskDone)
	fake.tasks = []supervisor.Task{done}
	fake.works = map[string]*supervisor.TaskWork{"t4": {Branch: "bs/t4", MergeInto: "main", Commits: []string{"4444444 healthz"}}}
	over := make(chan supervisor.Notice, 4)
	c := newConn(func(context.Context, bool) (Client, error) { return fake, nil }, nil)
	c.log = discardLog()
	c.coalesce = time.Millisecond
	c.onSnap = func(Snapshot) {}
	c.onNotice = func(supervisor.Notice) {}
	c.onNoticeOver = func(n supervisor.Notice) { over <- n }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.Run(ctx)
	fake.events <- supervisor.Event{Kind: supervisor.EventNotice, Notice: &supervisor.Notice{Kind: supervisor.NoticeFinished, TaskID: "t4", SessionID: "t4.1", Branch: "bs/t4"}}
	fake.events <- supervisor.Event{Kind: supervisor.EventTask, Task: &done}
	select {
	case n := <-over:
		t.Fatalf("withdrew %+v while the work waits to be merged", n)
	case <-time.After(300 * time.Millisecond):
	}
	fake.mu.Lock()
	fake.works["t4"] = &supervisor.TaskWork{Branch: "bs/t4", MergeInto: "main", Commits: []string{"4444444 healthz"}, Merged: &supervisor.MergeRecord{Into: "main", Commit: "4444444", At: t0}}
	fake.mu.Unlock()
	fake.events <- supervisor.Event{Kind: supervisor.EventTask, Task: &done}
	select {
	case n := <-over:
		if n.Kind != supervisor.NoticeFinished || n.TaskID != "t4" || n.SessionID != "t4.1" {
			t.Errorf("withdrew %+v", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the finished notice was not withdrawn once the work was merged")
	}
	fake.events <- supervisor.Event{Kind: supervisor.EventTask, Task: &done}
	select {
	case n := <-over:
		t.Errorf("withdrew %+v twice", n)
	case <-time.After(300 * time.Millisecond):
	}
}

// A click on the Blocked notice of an ended session lands on the blocked
// card: the dashboard shows it focused, with the reason, the agent's last
// screen from its transcript (through the emulator, colours and all) and
// Requeue right there — not a console that cannot attach.
func TestBlockedNoticeLandsOnTheCard(t *testing.T) {
	fake := newFake()
	tr := []byte("\x1b[2J\x1b[HRunning migration 0042...\r\n\x1b[33mTaking the schema lock…\x1b[0m\r\n")
	fake.transcripts = map[string]supervisor.Transcript{"t3": {SessionID: "t3.1", Size: int64(len(tr)), Data: tr}}
	u := newTestUI(t, fake, t0)
	u.apply(boardSnapshot(t0))
	u.OpenSession("t3.1")
	if len(u.consoles) != 0 {
		t.Fatal("an ended session's notice opened a console")
	}
	d := u.dash
	if d == nil || d.focused != "t3" || !d.pane.root.Visible() {
		t.Fatalf("the dashboard is not focused on t3's card (focused %q)", d.focused)
	}
	// The transcript is read off the UI goroutine.
	testwait.Eventually(t, 5*time.Second, func() error {
		// A narrow pane wraps the line: join its rows.
		if !strings.Contains(strings.ReplaceAll(d.pane.view.Text(), "\n", ""), "Taking the schema lock") {
			return fmt.Errorf("the last screen shows:\n%s\nstatus %q", d.pane.view.Text(), d.pane.status.Text)
		}
		return nil
	}, "the card's last screen")
	head := strings.Join(texts(d.pane.head), "\n")
	if !strings.Contains(head, "idle for 10m; no commits, no CPU") || !strings.Contains(head, "Requeue…") {
		t.Fatalf("the card pane says:\n%s", head)
	}
	// Every card with a session behind it can show its last screen.
	var shown []string
	for _, st := range []supervisor.TaskState{supervisor.TaskBlocked, supervisor.TaskDone} {
		for _, o := range d.columns[st].Objects {
			if slices.Contains(cardActions(t, d.win, o), "Last screen") {
				shown = append(shown, string(st))
			}
		}
	}
	if len(shown) != 2 {
		t.Fatalf("Last screen on the cards of %v, want blocked and done", shown)
	}
	// A live session's notice still opens its console. Last: the
	// console's goroutines draw while the test driver's taps above would
	// walk every window's objects.
	u.OpenSession("t2.1")
	if _, ok := u.consoles["t2.1"]; !ok {
		t.Fatal("a live session's notice did not open its console")
	}
}

// The board says what it is doing: "—" before the station answers, empty
// columns say so, a paused project shows why with Resume (play), done
// cards show their summary, and the Add Task dialog starts in its title.
func TestBoardSaysWhatItIsDoing(t *testing.T) {
	fake := newFake()
	u := newTestUI(t, fake, t0)
	u.ShowDashboard()
	d := u.dash
	if got := d.figures["Working"].Text; got != "—" {
		t.Errorf("Working shows %q while connecting, want —", got)
	}
	s := boardSnapshot(t0)
	s.Projects[0].Paused, s.Projects[0].PauseReason = true, "three failures in a row (breaker)"
	for i := range s.Tasks {
		if s.Tasks[i].State == supervisor.TaskDone {
			s.Tasks[i].Summary = "added /healthz with a test"
		}
	}
	s.Tasks = slices.DeleteFunc(s.Tasks, func(t supervisor.Task) bool { return t.State == supervisor.TaskTodo })
	u.apply(s)
	board := strings.Join(texts(d.win.Content()), "\n")
	for _, want := range []string{"Nothing queued", "three failures in a row (breaker)", "added /healthz with a test"} {
		if !strings.Contains(board, want) {
			t.Errorf("the board does not say %q:\n%s", want, board)
		}
	}
	resume := findButton(t, d.paused, "Resume")
	if resume.Icon != theme.MediaPlayIcon() {
		t.Error("Resume has no play icon")
	}
	test.Tap(resume)
	select {
	case c := <-fake.calls:
		if c.method != "Resume" || c.id != "web" {
			t.Errorf("Resume called %+v", c)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Resume did nothing")
	}
	u.showAddTask()
	if e, ok := d.win.Canvas().Focused().(*widget.Entry); !ok || e.PlaceHolder != "What should the agent do?" {
		t.Errorf("the Add Task dialog's focus is on %T, want the title", d.win.Canvas().Focused())
	}
}

// The board's Working figure counts the sessions at work; the column of
// tasks in the working state holds idle and nudged ones too. Its header
// must not read as a second, different Working count.
func TestWorkingColumnHeaderAgreesWithTheCounts(t *testing.T) {
	u := newTestUI(t, newFake(), t0)
	s := boardSnapshot(t0)
	s.Tasks = append(s.Tasks, task("t6", supervisor.TaskWorking))
	s.Sessions = append(s.Sessions, sess("t6.1", "t6", supervisor.SessNudged))
	u.apply(s)
	u.ShowDashboard()
	d := u.dash
	defer d.hide()
	if got := d.figures["Working"].Text; got != "1" {
		t.Fatalf("Working figure %s, want 1", got)
	}
	if got := d.figures["Idle"].Text; got != "1" {
		t.Fatalf("Idle figure %s, want 1", got)
	}
	head := d.heads[supervisor.TaskWorking].Text
	if strings.HasPrefix(head, "Working") && head != "Working ("+d.figures["Working"].Text+")" {
		t.Errorf("the column header says %q while the Working figure says %s", head, d.figures["Working"].Text)
	}
	if head != "In progress (2)" {
		t.Errorf("the column header says %q, want In progress (2)", head)
	}
}

// TestOutputDoesNotRebuildTheBoard: a session that prints sends a snapshot
// every 150 ms in which only its clock moved; the cards stay the same
// widgets (rebuilding them each time piled up widgets in Fyne's renderer
// cache, 25 MB of heap a minute) and the countdown takes the new output
// time. A change the cards show still redraws them.
func TestOutputDoesNotRebuildTheBoard(t *testing.T) {
	now := t0
	u := newTestUI(t, newFake(), now)
	s := boardSnapshot(now)
	u.apply(s)
	u.ShowDashboard()
	d := u.dash
	defer d.hide()
	working := d.columns[supervisor.TaskWorking]
	card := working.Objects[0]
	projects := d.projects.Objects[0]

	s2 := boardSnapshot(now)
	s2.Sessions[0].LastOutputAt = now.Add(-7 * time.Second)
	u.apply(s2)
	if working.Objects[0] != card || d.projects.Objects[0] != projects {
		t.Error("a snapshot in which only a session's output time moved rebuilt the board")
	}
	if all := texts(d.win.Content()); !contains(all, "silent 7 s · nudge in 2 min") {
		t.Errorf("the countdown did not take the new output time: %q", all)
	}

	s3 := boardSnapshot(now)
	s3.Tasks[1].Title = "Renamed"
	u.apply(s3)
	if working.Objects[0] == card || !contains(texts(d.win.Content()), "Renamed") {
		t.Error("a new title did not redraw the card")
	}
}
