package tray

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/app"
	"github.com/buildstation/buildstation/supervisor"
)

type sentDash struct{ sent chan Request }

func (d *sentDash) Send(r Request)          { d.sent <- r }
func (d *sentDash) Run(ctx context.Context) {}
func (d *sentDash) Close()                  {}

// What a menu click starts belongs to the tray: it runs under the tray's
// context, so quitting ends it, and the tray waits for it (Serve closes
// t.work) instead of leaving it behind.
func TestClickRunsAsTheTraysWork(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started, ended := make(chan struct{}), make(chan error, 1)
	log := slog.New(slog.DiscardHandler)
	tr := &tray{c: Config{Log: log}, log: log, ctx: ctx, dash: &sentDash{sent: make(chan Request, 4)},
		station: app.NewStation(func(context.Context, bool) (app.Client, error) { return nil, errors.New("no station") }, log),
		startFn: func(ctx context.Context) error {
			close(started)
			<-ctx.Done()
			ended <- ctx.Err()
			return ctx.Err()
		}}
	tr.click(app.MenuLine{Action: app.ActStartStation})
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("Start station did not start")
	}
	if n := tr.work.Running(); n != 1 {
		t.Fatalf("%d of the tray's goroutines run during a start; want the start's one", n)
	}
	cancel() // the tray quits
	tr.work.Close()
	select {
	case err := <-ended:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the start ended with %v; want the tray's context's end", err)
		}
	default:
		t.Fatal("the tray's work was waited for, yet the start had not ended")
	}
	if tr.work.Go(func() {}) {
		t.Error("a click after the tray stopped started work")
	}
}

// A finished notice's View diff asks the dashboard process for the task's
// diff window; its Merge runs as the tray's work and, with no station to
// merge through, says why over the dashboard.
func TestFinishedNoticeButtons(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := slog.New(slog.DiscardHandler)
	dash := &sentDash{sent: make(chan Request, 4)}
	tr := &tray{c: Config{Log: log}, log: log, ctx: ctx, dash: dash,
		station: app.NewStation(func(context.Context, bool) (app.Client, error) { return nil, errors.New("no station") }, log)}
	tr.land("t7.1", "t7", "diff")
	if r := <-dash.sent; r != (Request{Do: DoDiff, ID: "t7"}) {
		t.Errorf("View diff asked the dashboard for %+v", r)
	}
	tr.land("t7.1", "t7", "merge")
	tr.work.Close()
	select {
	case r := <-dash.sent:
		if r.Do != DoError || !strings.Contains(r.Text, "merge t7") {
			t.Errorf("Merge with no station showed %+v", r)
		}
	default:
		t.Error("Merge with no station said nothing")
	}
}

// A Windows toast's View diff reaches the tray as a link: a tray it
// starts opens the task's diff window first (Config.Diff), and a running
// tray's request carries the button to the same Land a notice's press
// reaches (Config.Requests' land), the diff window again.
func TestViewDiffLinkOpensTheDiffWindow(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := slog.New(slog.DiscardHandler)
	dash := &sentDash{sent: make(chan Request, 4)}
	tr := &tray{log: log, ctx: ctx, dash: dash,
		station: app.NewStation(func(context.Context, bool) (app.Client, error) { return nil, errors.New("no station") }, log),
		c: Config{Log: log, Diff: "t8", Open: "t8.1", Requests: func(ctx context.Context, show func(string), land func(string, string, string)) {
			land("t7.1", "t7", "diff")
		}}}
	tr.start(ctx)
	got := map[Request]bool{}
	for range 2 {
		select {
		case r := <-dash.sent:
			got[r] = true
		case <-time.After(10 * time.Second):
			t.Fatalf("the dashboard was asked for %v only", got)
		}
	}
	if !got[Request{Do: DoDiff, ID: "t8"}] || !got[Request{Do: DoDiff, ID: "t7"}] {
		t.Errorf("the dashboard was asked for %v; want the diff windows of t8 (the tray's start) and t7 (a request)", got)
	}
}

type recNotifier struct{ withdrawn chan supervisor.Notice }

func (r recNotifier) Notify(supervisor.Notice) error { return nil }
func (r recNotifier) Withdraw(n supervisor.Notice) error {
	r.withdrawn <- n
	return nil
}
func (r recNotifier) Close() error { return nil }

// A finished notice is withdrawn once its work is merged elsewhere; one
// this tray merged from the notice itself keeps its "Merged: …" notice,
// which took the finished one's place (the same group).
func TestMergedFromTheNoticeKeepsItsConfirmation(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	rec := recNotifier{withdrawn: make(chan supervisor.Notice, 4)}
	tr := &tray{log: log, notifier: rec, notes: make(chan func(), 8), ctx: context.Background(), dash: &sentDash{sent: make(chan Request, 4)},
		station: app.NewStation(func(context.Context, bool) (app.Client, error) { return nil, errors.New("no station") }, log)}
	fin := func(task string) supervisor.Notice {
		return supervisor.Notice{Kind: supervisor.NoticeFinished, TaskID: task, SessionID: task + ".1"}
	}
	tr.mergedMu.Lock()
	tr.merged = map[string]bool{"t7": true} // as merge marks it
	tr.mergedMu.Unlock()
	tr.withdraw(fin("t7"))
	tr.withdraw(fin("t8"))
	tr.withdraw(fin("t7")) // a second withdrawal is the station's own again
	close(tr.notes)
	for f := range tr.notes {
		f()
	}
	var got []string
	for len(rec.withdrawn) > 0 {
		got = append(got, (<-rec.withdrawn).TaskID)
	}
	if strings.Join(got, " ") != "t8 t7" {
		t.Errorf("withdrew the finished notices of %q, want t8 then t7 (not the first t7: the tray merged it)", got)
	}
}
