package app

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
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
