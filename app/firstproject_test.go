package app

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/buildstation/buildstation/supervisor"
)

// An empty station's dashboard says Add your first project as a button
// (docs/install.md says to click it), and the click opens Add project….
func TestFirstProjectLineIsAButton(t *testing.T) {
	fake := newFake()
	fake.agents = []supervisor.AgentCLI{{Name: "claude", Path: "/usr/bin/claude"}}
	u := newTestUI(t, fake, t0)
	u.call = func(f func()) { f() }
	u.apply(Snapshot{Connected: true})
	u.ShowDashboard()
	defer u.dash.hide()
	b := buttonIn(u.dash.paused, FirstProjectLine)
	if b == nil {
		t.Fatalf("the empty dashboard offers no %q button: %q", FirstProjectLine, texts(u.dash.paused))
	}
	if b.Importance != widget.HighImportance {
		t.Errorf("the first project's button is not the dashboard's primary action")
	}
	test.Tap(b)
	if s := overlayTexts(u.dash.win); !strings.Contains(s, "Add project") {
		t.Errorf("the first project's button opened %q, want the Add project dialog", s)
	}
	// Once a project exists the invitation goes.
	u.apply(Snapshot{Connected: true, Projects: []supervisor.ProjectInfo{{Name: "web"}}})
	if b := buttonIn(u.dash.paused, FirstProjectLine); b != nil {
		t.Error("the first project's button stays once a project exists")
	}
}
