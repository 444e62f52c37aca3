package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// A shared board goes away and comes back. While it is away the tray's
// tooltip, the menu's first line and the dashboard's header say so in the
// words of "buildstation status", a re-read keeps the board's last tasks
// instead of dropping the connection, and once it is back the line is gone
// and the board is read afresh.
func TestTrayShowsBoardOutage(t *testing.T) {
	fake := newFake()
	fake.tasks = []supervisor.Task{task("t1", supervisor.TaskTodo), task("t2", supervisor.TaskWorking)}
	fake.sessions = []supervisor.SessionInfo{sess("t2.1", "t2", supervisor.SessWorking)}
	fake.projects = []supervisor.ProjectInfo{{Name: "web", IdleWindow: "5m", BlockWindow: "5m", ReviewIdleWindow: "10m", Concurrency: 1}}
	fake.setBoard(supervisor.BoardLink{Reachable: true})
	u := newTestUI(t, fake, t0)
	// The tray process draws the tooltip of the snapshot (app/tray).
	tooltip := func() string { return TooltipFor(u.snap) }
	c := u.conn
	c.coalesce = time.Millisecond
	snaps := make(chan Snapshot, 16)
	c.onSnap = func(s Snapshot) { snaps <- s }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.Run(ctx)
	// The test's goroutine stands in for Fyne's: it applies each
	// snapshot the connection makes until one is what it waits for.
	await := func(what string, ok func(Snapshot) bool) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case s := <-snaps:
				u.apply(s)
				if ok(s) {
					return
				}
			case <-deadline:
				t.Fatalf("no snapshot with %s; the last: %+v", what, u.snap)
			}
		}
	}
	await("the board", func(s Snapshot) bool { return s.Connected && len(s.Tasks) == 2 })
	u.ShowDashboard()
	d := u.dash
	defer d.hide()

	down := time.Date(2025, 1, 2, 12, 3, 10, 0, time.Local)
	link := supervisor.BoardLink{DownSince: down, Queued: 3, Error: "dial tcp: connection refused"}
	fake.setBoard(link)
	fake.events <- supervisor.Event{Kind: supervisor.EventBoard, Board: &link}
	await("the board down", func(s Snapshot) bool { return s.Board != nil && !s.Board.Reachable })
	const away = "Board unreachable since 12:03:10, retrying (3 transitions queued)"
	if got := tooltip(); got != "Build Station: "+away+" — Working 1 · Reviewing 0 · Idle 0 · Needs you 0 · Blocked 0" {
		t.Errorf("tooltip %q", got)
	}
	if got := u.TrayMenu().Items[0].Label; got != away {
		t.Errorf("the menu's first line is %q, want %q", got, away)
	}
	if got := d.conn.Text; got != away {
		t.Errorf("the dashboard's header says %q, want %q", got, away)
	}

	// A re-read while the board is away (the dashboard asks for one every
	// few seconds) keeps what the board last said.
	c.Refresh()
	await("a re-read", func(Snapshot) bool { return true })
	if !u.snap.Connected || len(u.snap.Tasks) != 2 || len(u.snap.Sessions) != 1 {
		t.Fatalf("while the board is away the tray shows connected=%v (%s), %d tasks, %d sessions; want the last 2 tasks and this station's session",
			u.snap.Connected, u.snap.Err, len(u.snap.Tasks), len(u.snap.Sessions))
	}
	if got := d.conn.Text; got != away {
		t.Errorf("after a re-read the dashboard's header says %q", got)
	}

	// Back: the line goes, and what changed meanwhile is read.
	fake.mu.Lock()
	fake.tasks[0].State = supervisor.TaskWorking
	fake.mu.Unlock()
	fake.setBoard(supervisor.BoardLink{Reachable: true})
	fake.events <- supervisor.Event{Kind: supervisor.EventBoard, Board: &supervisor.BoardLink{Reachable: true}}
	await("the board back and read", func(s Snapshot) bool {
		return s.Board != nil && s.Board.Reachable && len(s.Tasks) == 2 && s.Tasks[0].State == supervisor.TaskWorking
	})
	if got := tooltip(); strings.Contains(got, "unreachable") || !strings.HasPrefix(got, "Build Station: working") {
		t.Errorf("tooltip %q once the board is back", got)
	}
	if got := u.TrayMenu().Items[0].Label; got != "Working 1 · Reviewing 0 · Idle 0 · Needs you 0 · Blocked 0" {
		t.Errorf("the menu's first line is %q once the board is back", got)
	}
	if got := d.conn.Text; got != "connected" {
		t.Errorf("the dashboard's header says %q once the board is back", got)
	}
}
