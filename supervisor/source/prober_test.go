package source

import (
	"context"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// busyIssue is a tracker whose issue has a new comment every time it is
// asked, as a person (or a script) commenting every 10 s would.
type busyIssue struct {
	Broken
	now *time.Time
}

func (b busyIssue) Activity(context.Context, supervisor.External, time.Time) (Activity, bool, error) {
	return Activity{At: b.now.Add(-10 * time.Second), Detail: "GitHub acme/web#1 has a new comment"}, true, nil
}

type oneTask struct{ t supervisor.Task }

func (o oneTask) Task(context.Context, string) (supervisor.Task, error) { return o.t, nil }

// Board activity extends a silent session by one window, never two in a
// row: a comment every 10 s does not keep a dead agent alive (#33 item 12).
// Life of another kind in between makes the board count again.
func TestBoardLifeExtendsOneWindowInARow(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	src := config.Source{Kind: "github", Project: "web", Repo: "acme/web", Label: "agent"}
	sy := New(Options{Sources: []config.Source{src}, Trackers: []Tracker{busyIssue{now: &now}}, Now: func() time.Time { return now }})
	task := supervisor.Task{ID: "t1", Project: "web", External: &supervisor.External{Kind: "github", ID: "acme/web#1"}}
	p := sy.Prober(oneTask{task})
	target := supervisor.ProbeTarget{SessionID: "t1.1", TaskID: "t1"}
	window := 5 * time.Minute

	since := now
	now = now.Add(window)
	l, ok, err := p.Probe(context.Background(), target, since)
	if err != nil || !ok {
		t.Fatalf("first silent window: %+v, %v, %v; want the board's life", l, ok, err)
	}
	since = l.At // the watchdog's next window starts at the life it saw
	now = now.Add(window)
	if l, ok, _ := p.Probe(context.Background(), target, since); ok {
		t.Fatalf("second silent window in a row counted the board again: %+v", l)
	}
	// Console output after the last board life: the board counts again.
	since = now.Add(time.Minute)
	now = since.Add(window)
	if _, ok, _ := p.Probe(context.Background(), target, since); !ok {
		t.Fatal("after other life, the board's life did not count")
	}
}
