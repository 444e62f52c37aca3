package app

import (
	"context"
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

// Tray → Notification settings… with no dashboard running: the tray
// starts a dashboard process, which opens the dialog before the station
// has answered. No error over it ("no station is running"): the Phone
// section says it is reading and keeps Save off (a form saved unread
// would remove the station's [phone] table), then fills in with the
// station's table once it answers.
func TestNotificationSettingsFromAColdStart(t *testing.T) {
	fake := newFake()
	fake.phoneTable = map[string]any{"service": "ntfy", "url": "https://ntfy.example", "topic": "builds-k3x9q"}
	u := newTestUI(t, fake, t0)
	u.conn.setClient(nil) // the new dashboard process: no answer from the station yet
	u.Do(MenuLine{Action: ActSettings})
	defer u.dash.hide()
	u.acts.Wait()
	if n := len(u.dash.win.Canvas().Overlays().List()); n != 1 {
		t.Fatalf("%d dialogs over the dashboard, want the Notifications dialog alone: %q", n, overlayTexts(u.dash.win))
	}
	f := u.phone
	save := findButton(t, u.dash.win.Canvas().Overlays().Top(), "Save phone settings")
	if !save.Disabled() || !strings.Contains(f.answer.Text, "Reading") {
		t.Errorf("before the station answered: Save on %v, the section says %q; want Save off while it reads", !save.Disabled(), f.answer.Text)
	}
	u.conn.setClient(fake)
	u.apply(Snapshot{Connected: true})
	u.acts.Wait()
	if f.service.Selected != "ntfy" || f.topic.Text != "builds-k3x9q" || save.Disabled() || f.answer.Text != "" {
		t.Errorf("once the station answered: service %q topic %q, Save on %v, answer %q; want the station's table and Save on",
			f.service.Selected, f.topic.Text, !save.Disabled(), f.answer.Text)
	}
}

// Tray → Add Task… while the station is down: the waiting dialog says
// what a desktop user does (Start station in the tray's menu), not the
// CLI's hint with the home's path; an action tried meanwhile says the
// same.
func TestWaitingForAStoppedStationSaysStartStation(t *testing.T) {
	fake := newFake()
	u := newTestUI(t, fake, t0)
	u.conn.setClient(nil)
	u.Do(MenuLine{Action: ActAddTask})
	defer u.dash.hide()
	u.apply(Snapshot{Err: `no station is running for /home/ann/.local/share/buildstation; start one with "buildstation daemon"`})
	got := overlayTexts(u.dash.win)
	if strings.Contains(got, "buildstation daemon") || !strings.Contains(got, "Start station") {
		t.Errorf("waiting for a stopped station the dialog says %q, want Start station", got)
	}
	// A card's button pressed meanwhile (every one goes through act).
	u.act(nil, "nudge t2.1", func(context.Context, Client) error { return nil })
	if got := strings.Join(texts(u.dash.win.Canvas().Overlays().Top()), "\n"); strings.Contains(got, "buildstation daemon") || !strings.Contains(got, "Start station") {
		t.Errorf("an action with no station says %q, want Start station", got)
	}
}
