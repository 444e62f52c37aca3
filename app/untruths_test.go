package app

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/buildstation/buildstation/supervisor"
)

// The card pane follows the task's current attempt: once a requeued
// task's second session runs, its screen replaces the first one's.
func TestPaneFollowsTheCurrentAttempt(t *testing.T) {
	fake := newFake()
	one := []byte("attempt one was here\r\n")
	fake.transcripts = map[string]supervisor.Transcript{"t3": {SessionID: "t3.1", Size: int64(len(one)), Data: one}}
	u := newTestUI(t, fake, t0)
	u.apply(boardSnapshot(t0))
	u.ShowCard("t3")
	d := u.dash
	defer d.hide()
	screen := func(want string) {
		t.Helper()
		d.pane.loading.Wait() // the transcript is read off Fyne's goroutine
		if !strings.Contains(d.pane.view.Text(), want) {
			t.Fatalf("the pane shows:\n%s\nstatus %q, want %s", d.pane.view.Text(), d.pane.status.Text, want)
		}
	}
	screen("attempt one")

	// Requeued: attempt 2 starts, and its session prints.
	two := []byte("attempt two at work\r\n")
	fake.mu.Lock()
	fake.transcripts["t3"] = supervisor.Transcript{SessionID: "t3.2", Size: int64(len(two)), Data: two, Live: true}
	fake.mu.Unlock()
	s := boardSnapshot(t0)
	s.Tasks[2].State, s.Tasks[2].Attempt, s.Tasks[2].Reason = supervisor.TaskWorking, 2, ""
	s.Sessions = append(s.Sessions, sess("t3.2", "t3", supervisor.SessWorking))
	u.apply(s)
	screen("attempt two")
	if strings.Contains(d.pane.view.Text(), "attempt one") {
		t.Errorf("attempt 1's screen is still shown:\n%s", d.pane.view.Text())
	}
}

// A console whose session has ended offers nothing to do to it: no
// Nudge now.
func TestEndedConsoleOffersNoActions(t *testing.T) {
	u := newTestUI(t, newFake(), t0)
	u.apply(boardSnapshot(t0))
	u.OpenConsole("t2.1")
	c := u.consoles["t2.1"]
	defer c.win.Close()
	if nudge := buttonIn(c.win.Content(), "Nudge now"); nudge == nil || !nudge.Visible() {
		t.Fatal("a live session's console offers no Nudge now")
	}
	s := boardSnapshot(t0)
	s.Tasks[1].State = supervisor.TaskDone
	s.Sessions[0].State = supervisor.SessEnded
	u.apply(s)
	if nudge := buttonIn(c.win.Content(), "Nudge now"); nudge != nil && nudge.Visible() {
		t.Error("the console of an ended session still offers Nudge now")
	}
	// Gone from the snapshot altogether (the station keeps live ones only).
	s.Sessions = s.Sessions[1:]
	u.apply(s)
	if nudge := buttonIn(c.win.Content(), "Nudge now"); nudge != nil && nudge.Visible() {
		t.Error("the console of a session the station no longer lists offers Nudge now")
	}
}

// buttonIn is the button labelled text under o, or nil.
func buttonIn(o fyne.CanvasObject, text string) *widget.Button {
	var found *widget.Button
	walk(o, func(o fyne.CanvasObject) bool {
		if b, ok := o.(*widget.Button); ok && b.Text == text {
			found = b
			return true
		}
		return false
	})
	return found
}

// The pane's last screen wraps a line longer than it is wide instead of
// cutting it off at the right edge.
func TestPaneWrapsLongLines(t *testing.T) {
	fake := newFake()
	long := "start " + strings.Repeat("word ", 17) + "THE-END-OF-THE-LINE"
	tr := []byte(long + "\r\nnext line\r\n")
	fake.transcripts = map[string]supervisor.Transcript{"t3": {SessionID: "t3.1", Size: int64(len(tr)), Data: tr}}
	u := newTestUI(t, fake, t0)
	u.apply(boardSnapshot(t0))
	u.ShowCard("t3")
	d := u.dash
	defer d.hide()
	d.pane.loading.Wait()
	if !strings.HasPrefix(d.pane.status.Text, "session t3.1") {
		t.Fatalf("the transcript did not load: %q", d.pane.status.Text)
	}
	d.pane.view.setSize(40, 10) // narrower than the line (110 characters)
	d.pane.repaintNow()
	// The emulator (100 columns) folds the line once, the pane again.
	text := strings.ReplaceAll(d.pane.view.Text(), "\n", "")
	if !strings.Contains(text, "start "+strings.Repeat("word ", 17)+"THE-END-OF-THE-LINE") {
		t.Errorf("the long line is cut off in a 40-column pane:\n%s", d.pane.view.Text())
	}
}

// The pane follows its session to the end: a screen read while the session
// ran ("still running; Reload for newer output") is read again once it
// ends, with no Reload, so a Done card never sits beside "still running".
func TestPaneFollowsItsSessionToTheEnd(t *testing.T) {
	fake := newFake()
	mid := []byte("halfway there\r\n")
	fake.transcripts = map[string]supervisor.Transcript{"t2": {SessionID: "t2.1", Size: int64(len(mid)), Data: mid, Live: true}}
	u := newTestUI(t, fake, t0)
	s := boardSnapshot(t0)
	u.apply(s)
	u.ShowCard("t2")
	d := u.dash
	defer d.hide()
	d.pane.loading.Wait()
	if !strings.Contains(d.pane.status.Text, "still running") {
		t.Fatalf("the pane of a running session says %q", d.pane.status.Text)
	}
	end := []byte("halfway there\r\nall done, committed\r\n")
	fake.mu.Lock()
	fake.transcripts["t2"] = supervisor.Transcript{SessionID: "t2.1", Size: int64(len(end)), Data: end}
	fake.mu.Unlock()
	s = boardSnapshot(t0)
	s.Tasks[1].State = supervisor.TaskDone
	s.Sessions = s.Sessions[1:]
	u.apply(s)
	d.pane.loading.Wait()
	if strings.Contains(d.pane.status.Text, "still running") || !strings.Contains(d.pane.view.Text(), "all done") {
		t.Errorf("after its session ended the pane says %q and shows:\n%s", d.pane.status.Text, d.pane.view.Text())
	}
}
