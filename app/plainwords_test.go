package app

import (
	"image/color"
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

// The card's clock says durations as the rest of the app does, in plain
// words ("nudge in 5 min", "in 40 s"), never Go's ("4m59s"): the walk's
// working card read "nudge in 4m59s" right after the session started.
func TestCardClockSaysDurationsInPlainWords(t *testing.T) {
	now := t0.Add(time.Hour)
	at := func(d time.Duration) *time.Time { v := now.Add(d); return &v }
	for _, tt := range []struct {
		silent, left time.Duration
		action, want string
	}{
		{time.Second, 4*time.Minute + 59*time.Second, "nudge", "printing · nudge in 5 min"},
		{3*time.Minute + 12*time.Second, 40 * time.Second, "nudge", "silent 3 min · nudge in 40 s"},
		{6 * time.Minute, 3*time.Minute + 2*time.Second, "block", "silent 6 min · blocks in 3 min"},
		{45 * time.Second, time.Hour + 5*time.Minute, "check", "silent 45 s · check in 1 h 5 min"},
	} {
		si := supervisor.SessionInfo{ID: "t1.1", TaskID: "t1", State: supervisor.SessWorking,
			LastOutputAt: now.Add(-tt.silent), NextAt: at(tt.left), NextAction: tt.action}
		if got := CardFor(task("t1", supervisor.TaskWorking), &si, now).Timing; got != tt.want {
			t.Errorf("silent %v, %s in %v: the card says %q, want %q", tt.silent, tt.action, tt.left, got, tt.want)
		}
	}
}

// The Projects tab's line says a project's windows in words ("idle 5 min"),
// not as the station's JSON has them ("5m0s").
func TestProjectSummarySaysWindowsInPlainWords(t *testing.T) {
	got := ProjectSummary(supervisor.ProjectInfo{Name: "web", Agent: "claude", IdleWindow: "5m0s", BlockWindow: "1m30s", ReviewIdleWindow: "1h0m0s", Concurrency: 1})
	for _, want := range []string{"idle 5 min", "block 1 min 30 s", "review idle 1 h"} {
		if !strings.Contains(got, want) {
			t.Errorf("ProjectSummary = %q, want it to say %q", got, want)
		}
	}
	if strings.Contains(got, "0s") {
		t.Errorf("ProjectSummary = %q says a Go duration", got)
	}
}

// With the station down the dashboard's status line says so in a few
// words a desktop user can act on (Start station is the tray's), never
// the CLI's hint with the home's path, and it is not cut at the window's
// edge; the columns claim no counts they cannot know.
func TestDashboardSaysTheStationStoppedInWordsThatFit(t *testing.T) {
	u := newTestUI(t, newFake(), t0)
	u.apply(boardSnapshot(t0))
	u.ShowDashboard()
	d := u.dash
	defer d.hide()
	stopped := time.Date(2026, 12, 5, 13, 9, 0, 0, time.Local)
	for _, s := range []Snapshot{
		{Err: `no station is running for /tmp/TestFirstEvening591121271/004/home; start one with "buildstation daemon"`, StoppedAt: stopped},
		{Err: `no station is running for /tmp/TestFirstEvening591121271/004/home; start one with "buildstation daemon"`},
	} {
		u.apply(s)
		got := d.conn.Text
		want := "No station running — Start station from the tray"
		if !s.StoppedAt.IsZero() {
			want = "The station stopped at 13:09 — Start station from the tray"
		}
		if got != want {
			t.Errorf("status line %q, want %q", got, want)
		}
		// The toolbar is as wide as its buttons and the line together:
		// wider than the window, the line is cut at its edge.
		if bar := parentOf(d.win.Content(), d.conn); bar == nil || bar.MinSize().Width > DashboardWidth {
			t.Errorf("the toolbar with status line %q does not fit in %d px", got, DashboardWidth)
		}
		for st, head := range d.heads {
			if strings.Contains(head.Text, "(0)") {
				t.Errorf("with no station the %s column says %q", st, head.Text)
			}
		}
	}
}

// parentOf is the container in tree that holds o.
func parentOf(tree fyne.CanvasObject, o fyne.CanvasObject) *fyne.Container {
	c, ok := tree.(*fyne.Container)
	if !ok {
		return nil
	}
	for _, child := range c.Objects {
		if child == o {
			return c
		}
		if p := parentOf(child, o); p != nil {
			return p
		}
	}
	return nil
}

// The diff window's header says what the card says of landing: "Merged
// into main at 14:02" for merged work (the walk's window after the
// restart did not), "Ready to merge into main" before, and merged once its
// own Merge went through.
func TestDiffWindowSaysMergedAsTheCardDoes(t *testing.T) {
	at := time.Date(2026, 12, 5, 14, 2, 0, 0, time.Local)
	fake := newFake()
	fake.works = map[string]*supervisor.TaskWork{
		"t4": {Branch: "bs/t4", Base: "3333333cccc", Head: "4444444dddd", MergeInto: "main", Commits: []string{"4444444 healthz"}, DiffStat: "1 file changed, 4 insertions(+)",
			Merged: &supervisor.MergeRecord{Into: "main", Commit: "4444444dddd", At: at}},
		"t5": {Branch: "bs/t5", Base: "5555555cccc", Head: "6666666dddd", MergeInto: "main", Commits: []string{"6666666 readyz"}, DiffStat: "1 file changed, 2 insertions(+)"},
	}
	fake.diffs = map[string]string{"t4": "diff --git a/h.go b/h.go\n+package h\n", "t5": "diff --git a/r.go b/r.go\n+package r\n"}
	d := openFullBoard(t, fake)
	open := func(id string) fyne.Window {
		t.Helper()
		tk := supervisor.Task{ID: id, Title: "Task " + id, Project: "web", State: supervisor.TaskDone, Attempt: 1}
		d.u.showDiff(tk, fake.works[id])
		if got := nextCall(t, fake); got.method != "TaskDiff" {
			t.Fatalf("the diff window called %+v first", got)
		}
		d.u.acts.Wait()
		for _, x := range fyne.CurrentApp().Driver().AllWindows() {
			if strings.HasPrefix(x.Title(), "Diff "+id) {
				return x
			}
		}
		t.Fatalf("no diff window for %s", id)
		return nil
	}
	merged := open("t4")
	defer merged.Close()
	if all := strings.Join(texts(merged.Content()), "\n"); !strings.Contains(all, "Merged into main at 14:02") {
		t.Errorf("the merged task's diff window says:\n%s", all)
	}
	ready := open("t5")
	defer ready.Close()
	if all := strings.Join(texts(ready.Content()), "\n"); !strings.Contains(all, "Ready to merge into main") {
		t.Errorf("the unmerged task's diff window says:\n%s", all)
	}
	test.Tap(findButton(t, ready.Content(), "Merge"))
	if got := nextCall(t, fake); got.method != "Merge" || got.id != "t5" {
		t.Fatalf("the diff window's Merge called %+v", got)
	}
	d.u.acts.Wait()
	eventually(t, "the diff window to say merged", func() bool {
		all := strings.Join(texts(ready.Content()), "\n")
		return strings.Contains(all, "Merged into main at ") && !strings.Contains(all, "Ready to merge")
	})
}

// Add project's "Gate: make test (found Makefile)" box is ticked when the
// Gate field holds that command, typed or not (the walk typed it and the
// box stayed empty, as if the suggestion were not taken), and unticked
// when the field says something else.
func TestAddProjectTicksTheSuggestionTheFieldHolds(t *testing.T) {
	fake := newFake()
	fake.agents = []supervisor.AgentCLI{{Name: "claude", Path: "/usr/bin/claude"}}
	fake.addProject = func(np supervisor.NewProject) (supervisor.AddedProject, error) {
		return supervisor.AddedProject{Project: supervisor.ProjectInfo{Name: "site", Path: np.Path, Agent: "claude", IdleWindow: "5m0s", BlockWindow: "5m0s", ReviewIdleWindow: "10m0s"},
			Suggested: &supervisor.SetupSuggestion{Gate: "make test", GateBecause: "Makefile", Setup: "npm ci", Because: "package-lock.json"}}, nil
	}
	u := newTestUI(t, fake, t0)
	u.apply(Snapshot{Connected: true})
	u.ShowDashboard()
	defer u.dash.hide()
	a := newAddProject(u, fake, u.dash.win, fake.agents, func(f func()) { f() })
	a.show()
	a.folder.SetText(t.TempDir())
	eventually(t, "the suggestions shown", func() bool { return a.suggest["gate"] != nil })
	gate := a.suggest["gate"]
	if gate.Checked {
		t.Fatal("the gate's box is ticked before the Gate field holds anything")
	}
	test.Type(a.gate, "make test")
	if !gate.Checked {
		t.Errorf("the Gate field holds %q, the suggestion's command, and its box %q is not ticked", a.gate.Text, gate.Text)
	}
	test.Type(a.gate, "s")
	if gate.Checked {
		t.Errorf("the Gate field holds %q and the box %q is still ticked", a.gate.Text, gate.Text)
	}
	if a.gate.Text != "make tests" {
		t.Errorf("the box changed what was typed: %q", a.gate.Text)
	}

	// The field filled before the folder's suggestion came: its box shows
	// ticked.
	b := newAddProject(u, fake, u.dash.win, fake.agents, func(f func()) { f() })
	b.show()
	b.setup.SetText("npm ci")
	b.folder.SetText(t.TempDir())
	eventually(t, "the suggestions shown", func() bool { return b.suggest["setup"] != nil })
	if !b.suggest["setup"].Checked || b.suggest["gate"].Checked {
		t.Errorf("setup field %q, gate field %q: setup box ticked %v, gate box ticked %v", b.setup.Text, b.gate.Text, b.suggest["setup"].Checked, b.suggest["gate"].Checked)
	}
}

// Add project and Edit project call the watchdog's windows by the same
// words ("Nudge after quiet", not a config key's "Idle window" in one and
// a sentence in the other): a person who set a window when adding a
// project finds it under the same name when editing it.
func TestAddAndEditProjectNameTheWindowsAlike(t *testing.T) {
	fake := newFake()
	fake.agents = []supervisor.AgentCLI{{Name: "claude", Path: "/usr/bin/claude"}}
	u := newTestUI(t, fake, t0)
	u.apply(Snapshot{Connected: true, AgentNames: []string{"claude"}})
	a := newAddProject(u, fake, nil, fake.agents, func(f func()) { f() })
	e, _ := showEdit(t, u, fake, webProject())
	a.win = u.dash.win
	a.show()
	label := func(form *widget.Form, w fyne.CanvasObject) string {
		for _, it := range form.Items {
			if it.Widget == w {
				return it.Text
			}
		}
		return ""
	}
	for _, key := range []string{"idle_window", "block_window", "review_idle_window"} {
		add, edit := label(a.form, a.windows[key]), label(e.form, e.fields[key])
		if add == "" || add != edit {
			t.Errorf("%s: Add project calls it %q, Edit project %q", key, add, edit)
		}
	}
}

// Choosing Custom command… turns the program's field on and its label
// with it: a form draws a disabled field's label grey, and the label
// stayed grey after the field turned on (seen in a real window).
func TestCustomCommandLabelTurnsOnWithItsField(t *testing.T) {
	fake := newFake()
	fake.agents = []supervisor.AgentCLI{{Name: "claude", Path: "/usr/bin/claude"}}
	u := newTestUI(t, fake, t0)
	u.apply(Snapshot{Connected: true})
	u.ShowDashboard()
	defer u.dash.hide()
	a := newAddProject(u, fake, u.dash.win, fake.agents, func(f func()) { f() })
	a.show()
	label := func() color.Color {
		var c color.Color
		walk(a.form, func(o fyne.CanvasObject) bool {
			if tx, ok := o.(*canvas.Text); ok && tx.Text == programLabel {
				c = tx.Color
				return true
			}
			return false
		})
		if c == nil {
			t.Fatalf("no %q label in the form", programLabel)
		}
		return c
	}
	th, v := fyne.CurrentApp().Settings().Theme(), fyne.CurrentApp().Settings().ThemeVariant()
	if got := label(); got != th.Color(theme.ColorNameDisabled, v) {
		t.Errorf("with claude chosen the %q label is %v, want the disabled colour", programLabel, got)
	}
	a.agent.SetSelected(customAgent)
	if got := label(); got != th.Color(theme.ColorNameForeground, v) {
		t.Errorf("with Custom command… chosen the %q label is %v, want the foreground colour (its field is on: %v)", programLabel, got, !a.command.Disabled())
	}
}
