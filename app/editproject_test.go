package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/supervisor"
)

// everyKey is each key `project set` takes, as a station of this round
// lists them in ProjectInfo.Settings (supervisor/station's
// TestEditProjectReadsEveryKeyAndTheInclude holds the station to
// config.ProjectKeys).
var everyKey = []supervisor.ProjectSetting{
	{Key: "agent", Type: "string", Default: "claude"},
	{Key: "backend", Type: "string", Default: "pty"},
	{Key: "idle_window", Type: "duration", Value: "15m", Default: "5m"},
	{Key: "block_window", Type: "duration", Default: "5m"},
	{Key: "review_idle_window", Type: "duration", Default: "10m"},
	{Key: "cpu_alive", Type: "percentage", Default: "10%"},
	{Key: "breaker", Type: `"N in D" or "off"`, Default: "3 in 10m"},
	{Key: "nudge", Type: "string", Default: "Note: silent for {idle}."},
	{Key: "permission_mode", Type: "string"},
	{Key: "daily_budget_usd", Type: "number"},
	{Key: "path", Type: "string", Value: "/src/web"},
	{Key: "command", Type: "array of strings"},
	{Key: "args", Type: "array of strings"},
	{Key: "gate", Type: "string"},
	{Key: "review", Type: "boolean", Default: "false"},
	{Key: "review_rounds", Type: "integer", Default: "3"},
	{Key: "concurrency", Type: "integer", Default: "1"},
	{Key: "setup", Type: "string", Value: "npm install"},
	{Key: "setup_timeout", Type: "duration", Default: "10m"},
	{Key: "base", Type: "string"},
	{Key: "worktree_root", Type: "string"},
	{Key: "stations", Type: "array of strings"},
	{Key: "remote", Type: "string"},
	{Key: "a_key_of_a_newer_station", Type: "string"},
}

func webProject() supervisor.ProjectInfo {
	return supervisor.ProjectInfo{Name: "web", Path: "/src/web", Agent: "claude", IdleWindow: "15m0s", BlockWindow: "5m0s", ReviewIdleWindow: "10m0s",
		Concurrency: 1, Settings: slices.Clone(everyKey)}
}

// showEdit opens Edit project for p over a 1280×800 dashboard and lays it
// out.
func showEdit(t *testing.T, u *UI, fake *fakeClient, p supervisor.ProjectInfo) (*editProject, fyne.CanvasObject) {
	t.Helper()
	u.ShowDashboard()
	t.Cleanup(u.dash.hide)
	u.dash.win.Resize(fyne.NewSize(1280, 800))
	e := newEditProject(u, fake, u.dash.win, p, func(f func()) { f() })
	e.show()
	dlg := u.dash.win.Canvas().Overlays().Top()
	if dlg == nil {
		t.Fatal("no Edit project dialog")
	}
	return e, dlg
}

// Edit project offers every key the station says `project set` takes —
// one it does not know by name too — each with the project's value and
// the default in plain words, in fields wide enough to read, inside the
// window; the steps the agent still needs are re-read while it is open.
func TestEditProjectOffersEveryKeyInFieldsThatFit(t *testing.T) {
	fake := newFake()
	fake.setup = supervisor.ProjectSetup{Include: ".env\n", Steps: []string{"Claude Code does not trust /src/web yet: run claude once in that folder and answer Yes"}}
	u := newTestUI(t, fake, t0)
	u.apply(Snapshot{Connected: true, AgentNames: []string{"claude", "codex"}})
	e, dlg := showEdit(t, u, fake, webProject())
	for _, s := range everyKey {
		if e.fields[s.Key] == nil {
			t.Errorf("no field for %s", s.Key)
		}
	}
	insideWindow(t, u.dash.win, dlg)
	for _, en := range findEntries(dlg) {
		if en.Visible() && en.Size().Width < 300 {
			t.Errorf("a field %q (%q) is %.0f px wide; too narrow to read", en.Text, en.PlaceHolder, en.Size().Width)
		}
	}
	if got := e.entry("idle_window"); got.Text != "15m" {
		t.Errorf("idle window shows %q, want the project's 15m", got.Text)
	}
	if got := e.entry("block_window"); got.Text != "" || got.PlaceHolder != "5 min (default)" {
		t.Errorf("block window %q / %q, want empty over \"5 min (default)\"", got.Text, got.PlaceHolder)
	}
	if got := e.entry("setup_timeout").PlaceHolder; got != "10 min (default)" {
		t.Errorf("setup time limit placeholder %q", got)
	}
	if got := e.include.Text; got != ".env\n" {
		t.Errorf(".worktreeinclude shows %q", got)
	}
	if s := statusText(dlg); !strings.Contains(s, "does not trust /src/web") {
		t.Errorf("the agent's step is not said:\n%s", s)
	}
	fake.mu.Lock()
	fake.setup.Steps = nil
	fake.mu.Unlock()
	e.recheck()
	if s := statusText(dlg); strings.Contains(s, "does not trust") {
		t.Errorf("the step taken meanwhile is still said after a re-check:\n%s", s)
	}
}

// Edit project shows the folder's suggestions with a box each, takes one
// only when it is ticked, and saves what changed: keys through project
// set (a cleared field goes back to the default), the .worktreeinclude
// through its own call. The custom command turns its field on.
func TestEditProjectSavesWhatChangedAndTheInclude(t *testing.T) {
	fake := newFake()
	fake.setup = supervisor.ProjectSetup{Include: ".env\n",
		Suggested: supervisor.SetupSuggestion{Setup: "npm ci", Because: "package-lock.json", Gate: "make test", GateBecause: "Makefile", Include: []string{".env*"}}}
	u := newTestUI(t, fake, t0)
	u.apply(Snapshot{Connected: true, AgentNames: []string{"claude", "codex"}})
	e, dlg := showEdit(t, u, fake, webProject())
	if s := dialogText(dlg); !strings.Contains(s, "make test") || !strings.Contains(s, "npm ci") {
		t.Fatalf("the suggestions are not shown:\n%s", s)
	}
	if e.entry("gate").Text != "" || e.entry("setup").Text != "npm install" {
		t.Fatal("a suggestion was taken before its box was ticked")
	}
	seenWithoutScrolling(t, u.dash.win, dlg, e.suggest["gate"], e.suggest["setup"])
	stacked(t, dlg, e.sugBox)
	test.Tap(e.suggest["gate"])
	if got := e.entry("gate").Text; got != "make test" {
		t.Errorf("ticked, the gate is %q", got)
	}
	e.entry("idle_window").SetText("")
	e.entry("setup_timeout").SetText("3m")
	test.Tap(e.checks["review"])
	e.include.SetText(".env\nnode_modules/\n")
	if e.entry("command").Disabled() == false {
		t.Error("the program field is on while a found agent is chosen")
	}
	e.agent.SetSelected(customAgent)
	if e.entry("command").Disabled() {
		t.Error("the program field stays off for a custom command")
	}
	e.agent.SetSelected("codex")
	test.Tap(findButton(t, dlg, "Save"))
	want := []call{
		{"SetInclude", "web", ".env\nnode_modules/\n"},
		{"SetProjectSettings", "web", "agent=codex gate=make test idle_window= review=true setup_timeout=3m"},
	}
	for _, w := range want {
		if got := nextCall(t, fake); got != w {
			t.Errorf("call %+v, want %+v", got, w)
		}
	}
	eventually(t, "the dialog closed", func() bool { return u.dash.win.Canvas().Overlays().Top() == nil })
}

// A folder changed together with the .worktreeinclude: the folder is saved
// first, so the include (written through the project's folder) lands in
// the new one, not the folder the project leaves.
func TestEditProjectWritesTheIncludeIntoTheNewFolder(t *testing.T) {
	fake := newFake()
	u := newTestUI(t, fake, t0)
	u.apply(Snapshot{Connected: true, AgentNames: []string{"claude", "codex"}})
	e, dlg := showEdit(t, u, fake, webProject())
	e.entry("path").SetText("/src/shop")
	e.include.SetText(".env\n")
	test.Tap(findButton(t, dlg, "Save"))
	want := []call{
		{"SetProjectSettings", "web", "path=/src/shop"},
		{"SetInclude", "web", ".env\n"},
	}
	for _, w := range want {
		if got := nextCall(t, fake); got != w {
			t.Errorf("call %+v, want %+v", got, w)
		}
	}
}

// Edit project's suggestions follow the folder typed: a new folder is
// read (the station is asked with that path) once typing pauses, and
// its files' gate is offered in place of the old folder's; a box ticked
// fills the field, and the old suggestion is gone. The same folder again
// keeps the boxes as they are (ticked stays ticked).
func TestEditProjectSuggestsForTheFolderTyped(t *testing.T) {
	fake := newFake()
	fake.setup = supervisor.ProjectSetup{Suggested: supervisor.SetupSuggestion{Gate: "make test", GateBecause: "Makefile"}}
	fake.setupAt = map[string]supervisor.ProjectSetup{
		"/src/shop": {Suggested: supervisor.SetupSuggestion{Gate: "npm test", GateBecause: "package.json"}},
	}
	u := newTestUI(t, fake, t0)
	u.apply(Snapshot{Connected: true, AgentNames: []string{"claude", "codex"}})
	e, dlg := showEdit(t, u, fake, webProject())
	if s := dialogText(dlg); !strings.Contains(s, "Gate: make test (found Makefile)") {
		t.Fatalf("the first folder's gate is not suggested:\n%s", s)
	}
	e.entry("path").SetText("/src/shop")
	eventually(t, "the typed folder's gate suggested", func() bool {
		return strings.Contains(dialogText(dlg), "Gate: npm test (found package.json)")
	})
	if s := dialogText(dlg); strings.Contains(s, "make test") {
		t.Errorf("the old folder's gate is still offered:\n%s", s)
	}
	fake.mu.Lock()
	paths := slices.Clone(fake.setupPaths)
	fake.mu.Unlock()
	if !slices.Contains(paths, "/src/shop") {
		t.Errorf("the station was asked for %q, never for the folder typed", paths)
	}
	test.Tap(e.suggest["gate"])
	if got := e.entry("gate").Text; got != "npm test" {
		t.Errorf("ticked, the gate is %q", got)
	}
	// A re-check of the same folder keeps the box ticked.
	e.recheck()
	if c := e.suggest["gate"]; c == nil || !c.Checked || !strings.Contains(c.Text, "npm test") {
		t.Errorf("after a re-check the gate's box is %+v", c)
	}
}

// A card whose worktree ran a setup says how long it took, on a line of
// its own (the branch's line is cut to the column), and the pane says it
// with the branch.
func TestCardSaysHowLongSetupTook(t *testing.T) {
	fake := newFake()
	fake.works = map[string]*supervisor.TaskWork{"t4": {Branch: "bs/t4", Base: "3333333cccc", Head: "4444444dddd", MergeInto: "main",
		Commits: []string{"4444444 healthz"}, DiffStat: "1 file changed, 4 insertions(+) and a long stat that the column cuts",
		Setup: &supervisor.SetupRun{Command: "npm ci", Took: 42 * time.Second, OK: true}}}
	d := openFullBoard(t, fake)
	if all := texts(cardOf(t, d, "t4")); !slices.Contains(all, "setup 42 s") {
		t.Errorf("the card does not say how long setup took:\n%s", strings.Join(all, "\n"))
	}
	w := &supervisor.TaskWork{Branch: "bs/b1/t3", Commits: []string{"abc one"},
		Setup: &supervisor.SetupRun{Command: "npm ci", Took: 42 * time.Second, OK: true}}
	if got := (workEntry{work: w}).line(); !strings.Contains(got, "setup 42 s") {
		t.Errorf("card line %q, want the setup's time", got)
	}
	w.Setup = &supervisor.SetupRun{Command: "npm ci", Took: 3 * time.Second}
	if got := (workEntry{work: w}).line(); !strings.Contains(got, "setup failed after 3 s") {
		t.Errorf("card line %q, want the failed setup said", got)
	}
}

func (f *fakeClient) ProjectSetup(ctx context.Context, name, path string) (supervisor.ProjectSetup, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.setupPaths = append(f.setupPaths, path)
	if ps, ok := f.setupAt[path]; ok {
		return ps, nil
	}
	return f.setup, nil
}

func (f *fakeClient) SetInclude(ctx context.Context, name, text string) error {
	f.record("SetInclude", name, text)
	return nil
}

// dialogText is every label, box, button and form label in o, joined.
func dialogText(o fyne.CanvasObject) string {
	var out []string
	walk(o, func(o fyne.CanvasObject) bool {
		switch v := o.(type) {
		case *widget.Label:
			out = append(out, v.Text)
		case *widget.Check:
			out = append(out, v.Text)
		case *widget.Button:
			out = append(out, v.Text)
		case *widget.Form:
			for _, it := range v.Items {
				out = append(out, it.Text)
			}
		}
		return false
	})
	return strings.Join(out, "\n")
}

// insideWindow fails when a scroll or a button of dlg reaches outside
// win's canvas: the dialog fits, its body scrolling inside (what lies in
// a scroll may be scrolled off; the scroll itself may not).
func insideWindow(t *testing.T, win fyne.Window, dlg fyne.CanvasObject) {
	t.Helper()
	c := win.Canvas().Size()
	drv := fyne.CurrentApp().Driver()
	var visit func(o fyne.CanvasObject)
	visit = func(o fyne.CanvasObject) {
		if o == nil || !o.Visible() {
			return
		}
		check := func() {
			pos, sz := drv.AbsolutePositionForObject(o), o.Size()
			if pos.X < 0 || pos.Y < 0 || pos.X+sz.Width > c.Width+0.5 || pos.Y+sz.Height > c.Height+0.5 {
				t.Errorf("%T at %v, %v reaches outside the %v window", o, pos, sz, c)
			}
		}
		switch v := o.(type) {
		case *container.Scroll, *widget.Button:
			check()
		case *fyne.Container:
			for _, x := range v.Objects {
				visit(x)
			}
		case *widget.Label:
		case fyne.Widget:
			for _, x := range test.WidgetRenderer(v).Objects() {
				visit(x)
			}
		}
	}
	visit(dlg)
}

// seenWithoutScrolling fails when one of objs lies in a scroll of dlg or
// outside win's canvas: a person sees it as the dialog opens.
func seenWithoutScrolling(t *testing.T, win fyne.Window, dlg fyne.CanvasObject, objs ...fyne.CanvasObject) {
	t.Helper()
	c := win.Canvas().Size()
	drv := fyne.CurrentApp().Driver()
	for _, o := range objs {
		if o == nil || !o.Visible() {
			t.Errorf("%T is not shown", o)
			continue
		}
		walk(dlg, func(x fyne.CanvasObject) bool {
			if sc, ok := x.(*container.Scroll); ok && walk(sc.Content, func(y fyne.CanvasObject) bool { return y == o }) {
				t.Errorf("%T lies in a scroll: seen only after scrolling", o)
			}
			return false
		})
		pos, sz := drv.AbsolutePositionForObject(o), o.Size()
		if pos.Y < 0 || pos.Y+sz.Height > c.Height+0.5 {
			t.Errorf("%T at %v, %v is outside the %v window", o, pos, sz, c)
		}
	}
}

// stacked fails when box, shown after its dialog was, is not laid out in
// the column that holds it: drawn over its neighbours, or its own lines
// over each other, as a window shows it until something else re-lays it.
func stacked(t *testing.T, dlg fyne.CanvasObject, box *fyne.Container) {
	t.Helper()
	var column *fyne.Container
	walk(dlg, func(o fyne.CanvasObject) bool {
		if c, ok := o.(*fyne.Container); ok && slices.Contains(c.Objects, fyne.CanvasObject(box)) {
			column = c
			return true
		}
		return false
	})
	if column == nil {
		t.Fatal("the box is not in the dialog")
	}
	for _, c := range []*fyne.Container{column, box} {
		var above fyne.CanvasObject
		for _, o := range c.Objects {
			if !o.Visible() {
				continue
			}
			if h, min := o.Size().Height, o.MinSize().Height; h+0.5 < min {
				t.Errorf("%T is %.0f px high, it needs %.0f: its lines are drawn over what follows", o, h, min)
			}
			if above != nil && o.Position().Y+0.5 < above.Position().Y+above.Size().Height {
				t.Errorf("%T at y %.0f is drawn over the %T above it (y %.0f, %.0f high)", o, o.Position().Y, above, above.Position().Y, above.Size().Height)
			}
			above = o
		}
	}
}

// An open Edit project dialog asks the station again by itself every few
// seconds (recheckEvery), so a step taken in a terminal meanwhile (Claude
// Code told to trust the folder) goes without a field being touched: the
// dialog opened as the Projects view's Edit… opens it, and nothing typed.
func TestEditProjectRechecksByItself(t *testing.T) {
	fake := newFake()
	u := newTestUI(t, fake, t0)
	u.apply(Snapshot{Connected: true, AgentNames: []string{"claude"}, Projects: []supervisor.ProjectInfo{webProject()}})
	u.ShowDashboard()
	u.dash.editProject(webProject())
	reads := func() int {
		fake.mu.Lock()
		defer fake.mu.Unlock()
		return len(fake.setupPaths)
	}
	// The first read as it opens, then one at least every recheckEvery;
	// the test only counts the station's calls (the dialog's goroutines
	// paint its widgets meanwhile).
	testwait.Eventually(t, 3*recheckEvery, func() bool { return reads() >= 2 },
		"the open dialog to ask the station again by itself", testwait.Later(func() string { return fmt.Sprint(reads(), " reads") }))
}
