package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/buildstation/buildstation/supervisor"
)

// A finished notice is on by default and has its own tick in Notification
// settings, beside nudge, block and permission: turning blocks off keeps
// finished ones, and turning finished off keeps blocks.
func TestFinishedNoticeHasItsOwnSetting(t *testing.T) {
	u := newTestUI(t, newFake(), t0)
	got := make(chan supervisor.Notice, 4)
	u.o.Notifier = notifierFunc(func(n supervisor.Notice) error { got <- n; return nil })
	u.notice(supervisor.Notice{Kind: supervisor.NoticeFinished, TaskID: "t1"})
	if n := next(t, got); n.Kind != supervisor.NoticeFinished {
		t.Fatalf("notified %+v, want the finished notice (on by default)", n)
	}
	p := u.app.Preferences()
	p.SetBool(PrefNotifyBlock, false)
	u.notice(supervisor.Notice{Kind: supervisor.NoticeFinished, TaskID: "t2"})
	if n := next(t, got); n.TaskID != "t2" {
		t.Fatalf("notified %+v; turning blocks off turned finished notices off", n)
	}
	p.SetBool(PrefNotifyBlock, true)
	u.ShowDashboard()
	defer u.dash.hide()
	u.showSettings()
	u.acts.Wait() // the Phone section's read of the station's [phone] table
	var tick *widget.Check
	walk(u.dash.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) bool {
		if c, ok := o.(*widget.Check); ok && strings.Contains(c.Text, "finished") {
			tick = c
			return true
		}
		return false
	})
	if tick == nil || !tick.Checked {
		t.Fatalf("Notification settings has no ticked line for finished work: %q", overlayTexts(u.dash.win))
	}
	tick.SetChecked(false)
	u.notice(supervisor.Notice{Kind: supervisor.NoticeFinished, TaskID: "t3"})
	u.notice(supervisor.Notice{Kind: supervisor.NoticeBlock, TaskID: "t4"})
	if n := next(t, got); n.TaskID != "t4" {
		t.Errorf("notified %+v; finished notices were turned off", n)
	}
}

// next is the next notice shown, or the zero notice after a second.
func next(t *testing.T, got <-chan supervisor.Notice) supervisor.Notice {
	t.Helper()
	select {
	case n := <-got:
		return n
	case <-time.After(time.Second):
		return supervisor.Notice{}
	}
}

// A click on a finished notice lands on the task's card in the pane, and
// the pane offers what the card does: Merge, one click (the notice says
// "ready to merge").
func TestFinishedNoticeLandsOnMerge(t *testing.T) {
	fake := newFake()
	fake.works = map[string]*supervisor.TaskWork{
		"t4": {Branch: "bs/t4", Base: "3333333cccc", Head: "4444444dddd", MergeInto: "main", Commits: []string{"4444444 healthz"}, DiffStat: "1 file changed, 4 insertions(+)"},
	}
	d := openFullBoard(t, fake)
	d.u.OpenSession("t4.1")
	if d.focused != "t4" || !d.pane.root.Visible() {
		t.Fatalf("the finished notice's click focused %q, want t4's card", d.focused)
	}
	if got := primaryOf(d.pane.head); got != "Merge" {
		t.Fatalf("the pane of a finished task offers %q first, want Merge: %q", got, texts(d.pane.head))
	}
	test.Tap(findButton(t, d.pane.head, "Merge"))
	if got := nextCall(t, fake); got != (call{"Merge", "t4", ""}) {
		t.Errorf("the pane's Merge called %+v", got)
	}
	d.u.acts.Wait()
}

// A finished notice's buttons act as the card's do: View diff opens the
// task's diff window, read from the station (the tray hands the dashboard
// only the task's id), with Merge in it; Merge merges the task's work
// into its project's branch and says where it went.
func TestFinishedNoticeButtonsViewDiffAndMerge(t *testing.T) {
	fake := newFake()
	fake.works = map[string]*supervisor.TaskWork{
		"t4": {Branch: "bs/t4", Base: "3333333cccc", Head: "4444444dddd", MergeInto: "main", Commits: []string{"4444444 healthz"}, DiffStat: "1 file changed, 4 insertions(+)"},
	}
	fake.diffs = map[string]string{"t4": "diff --git a/h.go b/h.go\n+package h\n"}
	d := openFullBoard(t, fake)
	d.u.ShowTaskDiff("t4")
	d.u.acts.Wait()
	if got := nextCall(t, fake); got.method != "TaskDiff" || got.id != "t4" {
		t.Fatalf("View diff from the notice called %+v", got)
	}
	var win fyne.Window
	for _, x := range fyne.CurrentApp().Driver().AllWindows() {
		if strings.HasPrefix(x.Title(), "Diff t4") {
			win = x
		}
	}
	if win == nil {
		t.Fatal("View diff from the notice opened no diff window")
	}
	defer win.Close()
	findButton(t, win.Content(), "Merge")

	said, err := MergeTask(context.Background(), fake, "t4")
	if err != nil || said.Title != "Merged: Task t4" || !strings.Contains(said.Body, "main") {
		t.Errorf("Merge from the notice said %+v, %v", said, err)
	}
	if got := nextCall(t, fake); got != (call{"Merge", "t4", ""}) {
		t.Errorf("Merge from the notice called %+v", got)
	}
}
