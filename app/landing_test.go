package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/buildstation/buildstation/supervisor"
)

// Done is not landed: a done task whose work is not merged says it is
// ready to merge into its project's branch and offers Merge as its primary
// action, one click that merges; once merged its card says so, with the
// time, and its primary action is View diff again.
func TestDoneCardOffersMergeThenSaysMerged(t *testing.T) {
	fake := newFake()
	fake.works = map[string]*supervisor.TaskWork{
		"t4": {Branch: "bs/t4", Base: "3333333cccc", Head: "4444444dddd", MergeInto: "main", Commits: []string{"4444444 healthz"}, DiffStat: "1 file changed, 4 insertions(+)"},
	}
	d := openFullBoard(t, fake)
	card := cardOf(t, d, "t4")
	if got := primaryOf(card); got != "Merge" {
		t.Errorf("the done card's primary action is %q, want Merge", got)
	}
	if all := strings.Join(texts(card), "\n"); !strings.Contains(all, "Ready to merge into main") {
		t.Errorf("the done card does not say it is ready to merge:\n%s", all)
	}
	test.Tap(findButton(t, card, "Merge"))
	if got := nextCall(t, fake); got != (call{"Merge", "t4", ""}) {
		t.Fatalf("Merge called %+v, want a merge into the project's branch", got)
	}
	d.u.acts.Wait()
	d.reading.Wait() // the card reads its work again after the merge
	at := time.Date(2026, 12, 5, 14, 2, 0, 0, time.Local)
	fake.mu.Lock()
	w := *fake.works["t4"]
	w.Merged = &supervisor.MergeRecord{Into: "main", Commit: "4444444dddd", At: at}
	fake.works["t4"] = &w
	fake.mu.Unlock()
	d.u.apply(fullBoard(t0)) // the merge's event: the card reads its work again
	d.reading.Wait()
	card = cardOf(t, d, "t4")
	if all := strings.Join(texts(card), "\n"); !strings.Contains(all, "Merged into main at 14:02") || strings.Contains(all, "Ready to merge") {
		t.Errorf("the merged card says:\n%s", all)
	}
	if got := primaryOf(card); got != "View diff" {
		t.Errorf("the merged card's primary action is %q, want View diff", got)
	}
}

// The diff window fits a 1280×800 screen however long the diff, scrolls
// inside, and carries Accept and Merge.
func TestDiffWindowFitsAndLands(t *testing.T) {
	fake := newFake()
	w := &supervisor.TaskWork{Branch: "bs/t3", Base: "1111111aaaa", Head: "2222222bbbb", MergeInto: "main", Commits: []string{"2222222 add lock timeout"}, DiffStat: strings.Repeat("many files changed ", 20)}
	fake.works = map[string]*supervisor.TaskWork{"t3": w}
	fake.diffs = map[string]string{"t3": "diff --git a/db.go b/db.go\n" + strings.Repeat("+const lockTimeout = 5\n", 3000)}
	d := openFullBoard(t, fake)
	var tk supervisor.Task
	for _, x := range d.u.snap.Tasks {
		if x.ID == "t3" {
			tk = x
		}
	}
	d.u.showDiff(tk, w)
	if got := nextCall(t, fake); got.method != "TaskDiff" {
		t.Fatalf("the diff window called %+v first", got)
	}
	d.u.acts.Wait()
	var win fyne.Window
	for _, x := range fyne.CurrentApp().Driver().AllWindows() {
		if strings.HasPrefix(x.Title(), "Diff t3") {
			win = x
		}
	}
	if win == nil {
		t.Fatal("no diff window")
	}
	defer win.Close()
	if s := win.Canvas().Size(); s.Width > 1280 || s.Height > 800 {
		t.Errorf("the diff window is %v, larger than a 1280×800 screen", s)
	}
	if min := win.Content().MinSize(); min.Width > 1280 || min.Height > 800 {
		t.Errorf("the diff window's content needs %v, larger than a 1280×800 screen", min)
	}
	test.Tap(findButton(t, win.Content(), "Merge"))
	if got := nextCall(t, fake); got != (call{"Merge", "t3", ""}) {
		t.Errorf("the diff window's Merge called %+v", got)
	}
	d.u.acts.Wait()
	findButton(t, win.Content(), "Accept…")
}

// Accept of a task with no commits asks first: accepting it lands
// nothing.
func TestAcceptWithNoCommitsAsksFirst(t *testing.T) {
	fake := newFake()
	fake.works = map[string]*supervisor.TaskWork{"t3": {Branch: "bs/t3", Base: "1111111aaaa", Head: "1111111aaaa", Commits: []string{}}}
	d := openFullBoard(t, fake)
	pickMenu(t, d.win, cardOf(t, d, "t3"), "Accept…")
	dlg := d.win.Canvas().Overlays().Top()
	if got := strings.Join(texts(dlg), "\n"); !strings.Contains(got, "nothing to merge") {
		t.Fatalf("Accept of a task with no commits shows %q, want it to ask first", got)
	}
	test.Tap(findButton(t, dlg, "Accept anyway"))
	dlg = d.win.Canvas().Overlays().Top()
	test.Tap(findButton(t, dlg, "Accept"))
	if got := nextCall(t, fake); got.method != "Accept" || got.id != "t3" {
		t.Errorf("Accept called %+v", got)
	}
}

// Merge from the diff window updates the card at once: a merge changes
// no task field the board's events carry, so the card reads its work
// again itself and says merged, with no Merge left to press.
func TestDiffWindowMergeUpdatesTheCard(t *testing.T) {
	fake := newFake()
	fake.works = map[string]*supervisor.TaskWork{
		"t4": {Branch: "bs/t4", Base: "3333333cccc", Head: "4444444dddd", MergeInto: "main", Commits: []string{"4444444 healthz"}, DiffStat: "1 file changed, 4 insertions(+)"},
	}
	fake.diffs = map[string]string{"t4": "diff --git a/h.go b/h.go\n+package h\n"}
	d := openFullBoard(t, fake)
	var tk supervisor.Task
	for _, x := range d.u.snap.Tasks {
		if x.ID == "t4" {
			tk = x
		}
	}
	d.u.showDiff(tk, d.works["t4"].work)
	if got := nextCall(t, fake); got.method != "TaskDiff" {
		t.Fatalf("the diff window called %+v first", got)
	}
	d.u.acts.Wait()
	var win fyne.Window
	for _, x := range fyne.CurrentApp().Driver().AllWindows() {
		if strings.HasPrefix(x.Title(), "Diff t4") {
			win = x
		}
	}
	if win == nil {
		t.Fatal("no diff window")
	}
	defer win.Close()
	test.Tap(findButton(t, win.Content(), "Merge"))
	if got := nextCall(t, fake); got.method != "Merge" || got.id != "t4" {
		t.Fatalf("the diff window's Merge called %+v", got)
	}
	d.u.acts.Wait()
	eventually(t, "the card to say merged", func() bool {
		d.reading.Wait()
		return strings.Contains(strings.Join(texts(cardOf(t, d, "t4")), "\n"), "Merged into main")
	})
	if all := strings.Join(texts(cardOf(t, d, "t4")), "\n"); strings.Contains(all, "Ready to merge") || primaryOf(cardOf(t, d, "t4")) == "Merge" {
		t.Errorf("after Merge in the diff window the card says:\n%s", all)
	}
}

// A merge made elsewhere (buildstation task merge in a terminal) reaches
// the card through the station's event alone: the task's event changes
// none of its fields, yet the card reads its work again and says merged,
// with no Reload.
func TestCardFollowsAMergeMadeElsewhere(t *testing.T) {
	fake := newFake()
	fake.works = map[string]*supervisor.TaskWork{
		"t4": {Branch: "bs/t4", Base: "3333333cccc", Head: "4444444dddd", MergeInto: "main", Commits: []string{"4444444 healthz"}, DiffStat: "1 file changed, 4 insertions(+)"},
	}
	d := openFullBoard(t, fake)
	// The station's stream, as the dashboard follows it; its snapshots
	// are applied here, on the test's goroutine.
	snaps := make(chan Snapshot, 16)
	c := newConn(func(context.Context, bool) (Client, error) { return fake, nil }, discardLog())
	c.coalesce = time.Millisecond
	c.onSnap = func(s Snapshot) { snaps <- s }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.Run(ctx)
	d.u.apply(<-snaps)
	d.reading.Wait()
	if got := primaryOf(cardOf(t, d, "t4")); got != "Merge" {
		t.Fatalf("the done card offers %q, want Merge", got)
	}
	// The CLI merges: the station records it and tells the task again.
	if _, err := fake.Merge(ctx, "t4", ""); err != nil {
		t.Fatal(err)
	}
	nextCall(t, fake)
	var t4 supervisor.Task
	for _, x := range fake.tasks {
		if x.ID == "t4" {
			t4 = x
		}
	}
	fake.events <- supervisor.Event{Kind: supervisor.EventTask, Task: &t4}
	d.u.apply(<-snaps)
	d.reading.Wait()
	card := cardOf(t, d, "t4")
	if all := strings.Join(texts(card), "\n"); !strings.Contains(all, "Merged into main at 14:02") || strings.Contains(all, "Ready to merge") {
		t.Errorf("after a merge from the CLI the card says:\n%s", all)
	}
	if got := primaryOf(card); got == "Merge" {
		t.Errorf("after a merge from the CLI the card still offers Merge")
	}
}
