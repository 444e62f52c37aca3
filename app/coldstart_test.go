package app

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"github.com/buildstation/buildstation/supervisor"
)

// overlayTexts is every label and button text of the window's top overlay.
func overlayTexts(w fyne.Window) string {
	top := w.Canvas().Overlays().Top()
	if top == nil {
		return ""
	}
	return strings.Join(texts(top), "\n")
}

// Tray → Add Task… right after Start station: the dashboard process has
// no snapshot yet. The dialog says it is connecting (never that the
// station has no projects), then opens the form on the first snapshot,
// with the station's projects.
func TestAddTaskWaitsForTheFirstSnapshot(t *testing.T) {
	fake := newFake()
	u := newTestUI(t, fake, t0)
	u.Do(MenuLine{Action: ActAddTask})
	defer u.dash.hide()
	got := overlayTexts(u.dash.win)
	if strings.Contains(got, "no projects") || !strings.Contains(got, "Connecting to the station…") {
		t.Fatalf("Add Task before the first snapshot shows %q, want it connecting", got)
	}
	u.apply(Snapshot{Connected: true, Projects: []supervisor.ProjectInfo{{Name: "web"}, {Name: "api"}}})
	top := u.dash.win.Canvas().Overlays().Top()
	if top == nil || strings.Contains(overlayTexts(u.dash.win), "Connecting") {
		t.Fatalf("after the first snapshot the top dialog is %q, want the Add Task form", overlayTexts(u.dash.win))
	}
	sel := findSelect(t, top)
	if !slices.Equal(sel.Options, []string{"web", "api"}) {
		t.Errorf("projects offered %q, want web and api", sel.Options)
	}
	if n := len(u.dash.win.Canvas().Overlays().List()); n != 1 {
		t.Errorf("%d dialogs open, want the form alone", n)
	}
}

// With truly no project, Add Task… opens Add project… instead of sending
// a desktop user to config.toml.
func TestAddTaskWithNoProjectOpensAddProject(t *testing.T) {
	fake := newFake()
	fake.agents = []supervisor.AgentCLI{{Name: "claude", Path: "/usr/bin/claude"}}
	u := newTestUI(t, fake, t0)
	u.call = func(f func()) { f() }
	u.Do(MenuLine{Action: ActAddTask})
	defer u.dash.hide()
	u.apply(Snapshot{Connected: true})
	if s := overlayTexts(u.dash.win); !strings.Contains(s, "Add project") || strings.Contains(s, "config.toml") {
		t.Errorf("Add Task… with no project shows %q, want the Add project dialog", s)
	}
}

// Pause queue from the tray before the first snapshot pauses the
// projects the station has, once it has said which.
func TestPauseAllWaitsForTheFirstSnapshot(t *testing.T) {
	fake := newFake()
	u := newTestUI(t, fake, t0)
	u.Do(MenuLine{Action: ActPauseAll})
	u.apply(Snapshot{Connected: true, Projects: []supervisor.ProjectInfo{{Name: "web"}}})
	if got := nextCall(t, fake); got.method != "Pause" || got.id != "web" {
		t.Errorf("call %+v, want Pause web", got)
	}
}
