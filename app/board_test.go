package app

import (
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/buildstation/buildstation/supervisor"
)

// fullBoard is a board with cards in every column, the widest each
// column's cards get: a long title, a session asking a permission (the
// longest badge), a watchdog's block reason, finished work.
func fullBoard(now time.Time) Snapshot {
	s := boardSnapshot(now)
	s.Tasks[0].Title = "Make the login page remember the last user across restarts of the browser"
	s.Tasks[2].Reason = `watchdog: no output for 5 min, nudged, then 5 min more with no sign of life; console: last output 05:33:05 (10 min 2 s ago), last line "Taking the schema lock; waiting"; commits: nothing; cpu: last life 05:31:40; board: nothing; gate: passes on HEAD dfc0702`
	s.Tasks = append(s.Tasks, task("t6", supervisor.TaskWorking))
	s.Sessions = append(s.Sessions, supervisor.SessionInfo{ID: "t6.1", TaskID: "t6", State: supervisor.SessNeedsPermission,
		WaitingOn: &supervisor.WaitingOn{Kind: supervisor.AskPermission, Tool: "Bash", Input: "npm publish --tag next"},
		Activity:  "running `go test ./...` for 2m", Usage: &supervisor.Usage{CostUSD: 1.23, ContextPct: 41}})
	return s
}

// With the card pane open at 1280×800 the columns keep a width a title
// reads in (the board scrolls sideways instead of squeezing five columns
// into what the pane leaves): no column is narrower than columnReadable,
// and the focused card's column lies in view, left of the pane, wherever
// it is on the board (Done, the rightmost, too). Closed, the five share
// the window again with nothing to scroll.
func TestPaneOpenKeepsColumnsReadable(t *testing.T) {
	u := newTestUI(t, newFake(), t0)
	u.app.Settings().SetTheme(theme.DefaultTheme())
	u.apply(fullBoard(t0))
	u.ShowDashboard()
	d := u.dash
	defer d.hide()
	d.win.Resize(fyne.NewSize(1280, 800))
	drv := fyne.CurrentApp().Driver()
	for _, id := range []string{"t3", "t4", "t1"} {
		d.focus(id)
		paneLeft := drv.AbsolutePositionForObject(d.pane.root).X
		if paneLeft > 1280-paneWidth || paneLeft < 1280-paneWidth-20 || !d.pane.root.Visible() {
			t.Fatalf("pane open on %s: the pane is at x=%.0f, %.0f px wide (visible %v); want it %d px wide at the right", id, paneLeft, d.pane.root.Size().Width, d.pane.root.Visible(), paneWidth)
		}
		var st supervisor.TaskState
		for _, tk := range d.u.snap.Tasks {
			if tk.ID == id {
				st = tk.State
			}
		}
		for _, s := range Columns {
			if w := d.columns[s].Size().Width; w < columnReadable {
				t.Errorf("pane open on %s: column %s is %.0f px wide, want at least %d", id, s, w, columnReadable)
			}
		}
		list := d.columns[st]
		x := drv.AbsolutePositionForObject(list).X
		if x < 0 || x+list.Size().Width > paneLeft+0.5 {
			t.Errorf("pane open on %s: its column %s spans %.0f–%.0f, not in view left of the pane at %.0f", id, st, x, x+list.Size().Width, paneLeft)
		}
		// No column is cut in half at the board's left edge.
		for _, s := range Columns {
			l := d.columns[s]
			if lx := drv.AbsolutePositionForObject(l).X; lx < -0.5 && lx+l.Size().Width > 0.5 {
				t.Errorf("pane open on %s: column %s is cut at the left (%.0f–%.0f)", id, s, lx, lx+l.Size().Width)
			}
		}
	}
	d.unfocus()
	for _, s := range Columns {
		x := drv.AbsolutePositionForObject(d.columns[s]).X
		if right := x + d.columns[s].Size().Width; x < 0 || right > 1280.5 {
			t.Errorf("pane closed: column %s spans %.0f–%.0f of the window", s, x, right)
		}
	}
}

// TestBoardFitsTheDefaultWindow: at the dashboard's default 1280×800 all
// five columns lie inside the window with the card pane closed (open, the
// board scrolls sideways), and no card is wider than its column (nothing
// is cut off at the side).
func TestBoardFitsTheDefaultWindow(t *testing.T) {
	u := newTestUI(t, newFake(), t0)
	u.app.Settings().SetTheme(theme.DefaultTheme()) // the sizes a user sees
	u.apply(fullBoard(t0))
	u.ShowDashboard()
	d := u.dash
	defer d.hide()
	d.win.Resize(fyne.NewSize(1280, 800))
	check := func(when string) {
		t.Helper()
		width := d.win.Canvas().Size().Width
		drv := fyne.CurrentApp().Driver()
		for _, st := range Columns {
			list := d.columns[st]
			x := drv.AbsolutePositionForObject(list).X
			// Beside the open pane the board scrolls sideways: a
			// column may lie out of view (TestPaneOpenKeepsColumnsReadable).
			if right := x + list.Size().Width; (x < 0 || right > width+0.5) && when != "pane open" || list.Size().Width <= 0 {
				t.Errorf("%s: column %s spans %.0f–%.0f of a %.0f-wide window", when, st, x, right, width)
				continue
			}
			for i, card := range list.Objects {
				if mw := card.MinSize().Width; mw > list.Size().Width+0.5 {
					t.Errorf("%s: card %d of %s needs %.0f px, its column has %.0f", when, i, st, mw, list.Size().Width)
				}
			}
		}
	}
	check("pane closed")
	d.focus("t3")
	check("pane open")
	// Nor taller: a window whose content needs more than it has grows
	// past the screen (under X the top of it was drawn off the window).
	if h := d.win.Content().MinSize().Height; h > 800 {
		t.Errorf("with the blocked card's pane open the dashboard needs %.0f px of height, more than 800", h)
	}
	if w := d.win.Canvas().Size().Width; w > 1280 {
		t.Errorf("the window grew to %.0f px to fit its content", w)
	}
	if !strings.Contains(strings.Join(texts(d.win.Content()), "\n"), "Done (1)") {
		t.Error("the Done column is missing")
	}
}

// openFullBoard shows fullBoard on fake's station, once the cards'
// branches (read off Fyne's goroutine) are in.
func openFullBoard(t *testing.T, fake *fakeClient) *dashboard {
	t.Helper()
	fake.tasks = fullBoard(t0).Tasks
	gate := make(chan struct{})
	fake.taskGate = gate
	u := newTestUI(t, fake, t0)
	u.apply(fullBoard(t0))
	u.ShowDashboard()
	t.Cleanup(u.dash.hide)
	close(gate)
	u.dash.reading.Wait()
	return u.dash
}

// primaryOf is the text of a card's primary (high-importance) button; ""
// when it has none.
func primaryOf(card fyne.CanvasObject) string {
	var out string
	walk(card, func(o fyne.CanvasObject) bool {
		if b, ok := o.(*widget.Button); ok && b.Importance == widget.HighImportance {
			out = b.Text
			return true
		}
		return false
	})
	return out
}

// cardOf is task id's card on the board.
func cardOf(t *testing.T, d *dashboard, id string) fyne.CanvasObject {
	t.Helper()
	for _, st := range Columns {
		if i := slices.Index(d.order[st], id); i >= 0 {
			return d.columns[st].Objects[i]
		}
	}
	t.Fatalf("no card for %s", id)
	return nil
}

// Each card offers one primary action, the one its state calls for, and
// the rest in its "…" menu; only a live session's card offers Console,
// Nudge now and Block.
func TestCardsOfferOnePrimaryAction(t *testing.T) {
	fake := newFake()
	fake.works = map[string]*supervisor.TaskWork{
		"t3": {Branch: "bs/t3", Base: "1111111aaaa", Head: "2222222bbbb", Commits: []string{"2222222 add lock timeout"}, DiffStat: "2 files changed, 10 insertions(+), 1 deletion(-)"},
		"t4": {Branch: "bs/t4", Base: "3333333cccc", Head: "4444444dddd", Commits: []string{"4444444 healthz", "5555555 test"}, DiffStat: "1 file changed, 4 insertions(+)"},
	}
	d := openFullBoard(t, fake)
	if d.works["t4"].work == nil || d.works["t3"].work == nil {
		t.Fatal("the cards' branches were not read")
	}
	for id, want := range map[string]string{"t1": "", "t2": "Console", "t3": "Requeue…", "t4": "Merge", "t5": "Console", "t6": "Allow once"} {
		if got := primaryOf(cardOf(t, d, id)); got != want {
			t.Errorf("card %s's primary action is %q, want %q", id, got, want)
		}
	}
	blocked := cardActions(t, d.win, cardOf(t, d, "t3"))
	for _, want := range []string{"Requeue…", "Accept…", "View diff", "Merge", "Merge into…", "Last screen", "Cancel…"} {
		if !slices.Contains(blocked, want) {
			t.Errorf("the blocked card lacks %q: %q", want, blocked)
		}
	}
	for _, never := range []string{"Nudge now", "Block…", "Console"} {
		if slices.Contains(blocked, never) {
			t.Errorf("the blocked card, whose session has ended, offers %q", never)
		}
	}
	if got := cardActions(t, d.win, cardOf(t, d, "t2")); !slices.Contains(got, "Nudge now") || !slices.Contains(got, "Block…") {
		t.Errorf("a running card's menu is %q", got)
	}
	if all := strings.Join(texts(cardOf(t, d, "t4")), "\n"); !strings.Contains(all, "2 commits · 1 file changed, 4 insertions(+)") {
		t.Errorf("the done card does not show its commits and diff stat:\n%s", all)
	}
	if all := strings.Join(texts(cardOf(t, d, "t6")), "\n"); !strings.Contains(all, "$1.23") || !strings.Contains(all, "npm publish --tag next") {
		t.Errorf("the asking card does not show its activity, cost and request:\n%s", all)
	}
	// The blocked card's evidence is a table, a row per layer.
	if all := texts(cardOf(t, d, "t3")); !slices.Contains(all, "cpu") || !slices.Contains(all, "05:31:40 · sign of life") || !slices.Contains(all, "nothing") {
		t.Errorf("the blocked card shows no evidence table: %q", all)
	}
	test.Tap(findButton(t, cardOf(t, d, "t6"), "Allow once"))
	if got := <-fake.calls; got != (call{"Allow", "t6.1", ""}) {
		t.Errorf("Allow called %+v", got)
	}
}

// A card's finished work is one click away: View diff opens the diff in
// a window, Accept asks for a note and accepts, Merge asks for a branch
// and merges, and a conflict is shown with the files it names.
func TestCardTakesTheWork(t *testing.T) {
	fake := newFake()
	fake.works = map[string]*supervisor.TaskWork{"t3": {Branch: "bs/t3", Base: "1111111aaaa", Head: "2222222bbbb",
		Commits: []string{"2222222 add lock timeout"}, DiffStat: "1 file changed, 1 insertion(+)",
		Gate: &supervisor.GateCheck{Commit: "2222222bbbb", Passed: true}}}
	fake.diffs = map[string]string{"t3": "diff --git a/db.go b/db.go\n--- a/db.go\n+++ b/db.go\n@@ -1 +1,2 @@\n package db\n+const lockTimeout = 5\n"}
	d := openFullBoard(t, fake)

	// d on the selected card is View diff too.
	d.focus("t3")
	d.win.Canvas().OnTypedRune()('d')
	if got := <-fake.calls; got != (call{"TaskDiff", "t3", ""}) {
		t.Fatalf("d called %+v", got)
	}
	// Its diff is shown before the next window asks for one: Fyne's test
	// driver runs fyne.Do on the calling goroutine, so two windows filling
	// at once would share the font cache unguarded (the real driver runs
	// them one after the other on its own thread).
	d.u.acts.Wait()
	d.unfocus()
	closeDiffs := func() {
		for _, w := range fyne.CurrentApp().Driver().AllWindows() {
			if strings.HasPrefix(w.Title(), "Diff t3") {
				w.Close()
			}
		}
	}
	closeDiffs()
	pickMenu(t, d.win, cardOf(t, d, "t3"), "View diff")
	if got := <-fake.calls; got != (call{"TaskDiff", "t3", ""}) {
		t.Fatalf("View diff called %+v", got)
	}
	var diffWin fyne.Window
	for _, w := range fyne.CurrentApp().Driver().AllWindows() {
		if strings.HasPrefix(w.Title(), "Diff t3") {
			diffWin = w
		}
	}
	if diffWin == nil {
		t.Fatal("no diff window")
	}
	defer diffWin.Close()
	d.u.acts.Wait() // the diff is read off Fyne's goroutine
	if got := richText(diffWin.Content()); !strings.Contains(got, "+const lockTimeout = 5") {
		t.Errorf("the diff window shows:\n%s", got)
	}
	if head := strings.Join(texts(diffWin.Content()), "\n"); !strings.Contains(head, "bs/t3 · 1111111aaa..2222222bbb · 1 commit · 1 file changed") || !strings.Contains(head, "gate passes on 2222222bbb") {
		t.Errorf("the diff window's header says %q", head)
	}

	pickMenu(t, d.win, cardOf(t, d, "t3"), "Accept…")
	dlg := d.win.Canvas().Overlays().Top()
	test.Type(entryIn(t, dlg), "the gate passes; the lock timeout is the fix")
	test.Tap(findButton(t, dlg, "Accept"))
	if got := <-fake.calls; got != (call{"Accept", "t3", "the gate passes; the lock timeout is the fix"}) {
		t.Errorf("Accept called %+v", got)
	}

	fake.mu.Lock()
	fake.mergeErr = supervisor.Conflictf("bs/t3 into main conflicts in db.go, schema.sql; nothing was changed")
	fake.mu.Unlock()
	pickMenu(t, d.win, cardOf(t, d, "t3"), "Merge into…")
	dlg = d.win.Canvas().Overlays().Top()
	test.Type(entryIn(t, dlg), "main")
	test.Tap(findButton(t, dlg, "Merge"))
	if got := <-fake.calls; got != (call{"Merge", "t3", "main"}) {
		t.Errorf("Merge called %+v", got)
	}
	d.u.acts.Wait()
	if got := strings.Join(texts(d.win.Canvas().Overlays().Top()), "\n"); !strings.Contains(got, "db.go, schema.sql") {
		t.Errorf("the conflict's files are not shown: %q", got)
	}
}

// entryIn is the first entry in o.
func entryIn(t *testing.T, o fyne.CanvasObject) *widget.Entry {
	t.Helper()
	var e *widget.Entry
	walk(o, func(o fyne.CanvasObject) bool {
		e, _ = o.(*widget.Entry)
		return e != nil
	})
	if e == nil {
		t.Fatal("no entry")
	}
	return e
}

// richText is the text of every rich text under o.
func richText(o fyne.CanvasObject) string {
	var b strings.Builder
	walk(o, func(o fyne.CanvasObject) bool {
		if r, ok := o.(*widget.RichText); ok {
			b.WriteString(r.String())
		}
		return false
	})
	return b.String()
}

// The board's keys: arrows and j/k/h/l move the selection between cards,
// Enter opens a live card's console (an ended one's last screen), r asks
// to requeue a blocked card with the button's dialog.
func TestKeyboardMovesBetweenCards(t *testing.T) {
	fake := newFake()
	u := newTestUI(t, fake, t0)
	u.apply(boardSnapshot(t0))
	u.ShowDashboard()
	d := u.dash
	defer d.hide()
	c := d.win.Canvas()
	key := func(k fyne.KeyName) { c.OnTypedKey()(&fyne.KeyEvent{Name: k}) }
	press := func(r rune) { c.OnTypedRune()(r) }
	steps := []struct {
		do   func()
		want string
	}{
		{func() { key(fyne.KeyDown) }, "t1"}, // nothing selected: the first card
		{func() { key(fyne.KeyRight) }, "t2"},
		{func() { press('l') }, "t5"},
		{func() { press('l') }, "t3"},
		{func() { key(fyne.KeyRight) }, "t4"},
		{func() { key(fyne.KeyRight) }, "t4"}, // the last column: stays
		{func() { press('h') }, "t3"},
		{func() { press('j') }, "t3"}, // one card in the column
	}
	for i, s := range steps {
		s.do()
		if d.selected != s.want {
			t.Fatalf("step %d: selected %q, want %q", i, d.selected, s.want)
		}
	}
	marked := walk(cardOf(t, d, "t3"), func(o fyne.CanvasObject) bool {
		r, ok := o.(*canvas.Rectangle)
		return ok && r.StrokeWidth == 3
	})
	if !marked {
		t.Error("the selected card is not marked")
	}
	press('r')
	dlg := c.Overlays().Top()
	if dlg == nil || !slices.Contains(texts(dlg), "Requeue") {
		t.Fatal("r on a blocked card opened no requeue dialog")
	}
	test.Type(entryIn(t, dlg), "with the lock timeout")
	test.Tap(findButton(t, dlg, "Requeue"))
	if got := <-fake.calls; got != (call{"Requeue", "t3", "with the lock timeout"}) {
		t.Errorf("r requeued with %+v", got)
	}
	key(fyne.KeyReturn) // an ended session: its last screen
	if d.focused != "t3" || len(u.consoles) != 0 {
		t.Errorf("Enter on a blocked card focused %q and opened %d consoles", d.focused, len(u.consoles))
	}
	press('k') // t3 alone in its column
	press('h')
	press('h')
	if d.selected != "t2" {
		t.Fatalf("selected %q, want t2", d.selected)
	}
	key(fyne.KeyReturn)
	if _, ok := u.consoles["t2.1"]; !ok {
		t.Error("Enter on a running card opened no console")
	}
	key(fyne.KeyEscape) // closes the pane (t3's, from the Enter above)
	if d.focused != "" || d.selected != "t2" {
		t.Errorf("Escape left the pane on %q, the selection on %q", d.focused, d.selected)
	}
	key(fyne.KeyEscape) // no pane open: the selection goes
	if d.selected != "" {
		t.Errorf("Escape left %q selected", d.selected)
	}
	key(fyne.KeyDown)
	press('r') // not blocked: nothing to requeue
	if top := c.Overlays().Top(); top != nil {
		t.Errorf("r on a running card opened %T", top)
	}
}

// With the card pane open at 1280×800 the columns narrow, and a card's
// lines wrap rather than end in "…": its project and attempt, its commits
// and diff stat read whole.
func TestCardsCutNothingWithThePaneOpen(t *testing.T) {
	fake := newFake()
	fake.works = map[string]*supervisor.TaskWork{
		"t4": {Branch: "bs/t4", Base: "3333333cccc", Head: "4444444dddd", MergeInto: "main", Commits: []string{"4444444 a", "5555555 b"}, DiffStat: "12 files changed, 400 insertions(+), 36 deletions(-)"},
	}
	d := openFullBoard(t, fake)
	d.u.app.Settings().SetTheme(theme.DefaultTheme())
	d.win.Resize(fyne.NewSize(1280, 800))
	s := fullBoard(t0)
	for i := range s.Tasks {
		s.Tasks[i].Attempt = 3
	}
	d.u.apply(s)
	d.focus("t4")
	for _, st := range Columns {
		for _, card := range d.columns[st].Objects {
			walk(card, func(o fyne.CanvasObject) bool {
				l, ok := o.(*widget.Label)
				if !ok || l.Text == "" || l.Truncation == fyne.TextTruncateOff {
					return false
				}
				need := fyne.MeasureText(l.Text, theme.TextSize(), l.TextStyle).Width + 2*theme.InnerPadding()
				if need > l.Size().Width+0.5 {
					t.Errorf("column %s cuts %q to %.0f px (it needs %.0f)", st, l.Text, l.Size().Width, need)
				}
				return false
			})
		}
	}
}
