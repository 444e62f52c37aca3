package app

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// Add project… on an empty station: the agents found are offered with
// their versions, every change is checked by the station before anything
// is written (a missing folder is said in one sentence, Add stays off),
// the defaults show in the empty windows, the one-time step Claude Code
// needs is said, and Add sends the folder, the agent and the window
// changed. A refused Add keeps the dialog and what was typed.
func TestAddProjectDialogChecksThenAdds(t *testing.T) {
	fake := newFake()
	fake.agents = []supervisor.AgentCLI{{Name: "claude", Path: "/usr/bin/claude", Version: "2.1.328 (Claude Code)"}, {Name: "gemini", Path: "/usr/bin/gemini"}}
	refuse := false
	fake.addProject = func(np supervisor.NewProject) (supervisor.AddedProject, error) {
		if _, err := os.Stat(np.Path); err != nil {
			return supervisor.AddedProject{}, &apitype.Error{Status: http.StatusBadRequest, Message: np.Path + " does not exist; create the folder first or fix the path"}
		}
		if refuse && !np.DryRun {
			return supervisor.AddedProject{}, &apitype.Error{Status: http.StatusBadRequest, Message: `a project named "web" already exists; pass --name with another name`}
		}
		name := cmpOr(np.Name, filepath.Base(np.Path))
		return supervisor.AddedProject{Project: supervisor.ProjectInfo{Name: name, Path: np.Path, Agent: np.Agent, IdleWindow: "5m0s", BlockWindow: "5m0s", ReviewIdleWindow: "10m0s"},
			Steps: []string{"Claude Code does not trust " + np.Path + " yet: run claude once in that folder and answer Yes"}}, nil
	}
	u := newTestUI(t, fake, t0)
	u.apply(Snapshot{Connected: true})
	u.ShowDashboard()
	defer u.dash.hide()
	findButton(t, u.dash.projects, "Add project…") // it runs showAddProject, which asks for the agents first:
	agents, _ := fake.AgentCLIs(context.Background())
	newAddProject(u, fake, u.dash.win, agents, func(f func()) { f() }).show()
	c := u.dash.win.Canvas()
	dlg := c.Overlays().Top()
	if dlg == nil {
		t.Fatal("no Add project dialog")
	}
	agent := findSelect(t, dlg)
	if want := []string{"claude — 2.1.328 (Claude Code)", "gemini", customAgent}; !slices.Equal(agent.Options, want) || agent.Selected != want[0] {
		t.Fatalf("agents offered %q (selected %q), want %q", agent.Options, agent.Selected, want)
	}
	entries := findEntries(dlg) // folder, name, command, gate, setup, idle, block, review idle
	if len(entries) != 8 {
		t.Fatalf("%d entries", len(entries))
	}
	add := findButton(t, dlg, "Add")
	missing := filepath.Join(t.TempDir(), "nope")
	entries[0].SetText(missing)
	eventually(t, "the missing folder said", func() bool {
		return strings.Contains(statusText(dlg), missing+" does not exist; create the folder first") && add.Disabled()
	})
	web := filepath.Join(t.TempDir(), "web")
	os.Mkdir(web, 0o700)
	entries[0].SetText(web)
	eventually(t, "the folder accepted", func() bool { return !add.Disabled() })
	if s := statusText(dlg); !strings.Contains(s, "Before its first task: Claude Code does not trust "+web) {
		t.Errorf("status %q, want the trust step", s)
	}
	if entries[5].PlaceHolder != "5 min (default)" || entries[7].PlaceHolder != "10 min (default)" || entries[1].PlaceHolder != "web" {
		t.Errorf("placeholders %q %q %q, want the station's defaults in words and the folder's name", entries[1].PlaceHolder, entries[5].PlaceHolder, entries[7].PlaceHolder)
	}
	if !entries[2].Disabled() {
		t.Error("the command field is on for a found agent")
	}
	entries[5].SetText("15m")
	eventually(t, "the window checked", func() bool { return !add.Disabled() })
	refuse = true
	test.Tap(add)
	want := call{"AddProject", "", fmt.Sprintf("%s agent=claude command=[] settings=map[idle_window:15m]", web)}
	if got := nextCall(t, fake); got != want {
		t.Fatalf("call %+v, want %+v", got, want)
	}
	eventually(t, "the refusal said in the dialog", func() bool {
		return strings.Contains(statusText(dlg), "already exists") && c.Overlays().Top() == dlg && entries[0].Text == web
	})
	refuse = false
	agent.SetSelected(customAgent)
	test.Type(entries[2], "aider --yes")
	eventually(t, "the custom command checked", func() bool { return !add.Disabled() })
	test.Tap(add)
	want.arg = fmt.Sprintf("%s agent= command=[\"aider\" \"--yes\"] settings=map[idle_window:15m]", web)
	if got := nextCall(t, fake); got != want {
		t.Fatalf("call %+v, want %+v", got, want)
	}
	eventually(t, "the steps said once added", func() bool {
		top := c.Overlays().Top()
		return top != nil && top != dlg && slices.ContainsFunc(texts(top), func(s string) bool { return strings.Contains(s, "does not trust") })
	})
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func nextCall(t *testing.T, f *fakeClient) call {
	t.Helper()
	select {
	case got := <-f.calls:
		return got
	case <-time.After(5 * time.Second):
		t.Fatal("no call")
		return call{}
	}
}

// eventually waits for what the UI's goroutines bring about.
func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within 5s", what)
		}
		time.Sleep(10 * time.Millisecond) // polling what another goroutine sets
	}
}

func findEntries(o fyne.CanvasObject) []*widget.Entry {
	var out []*widget.Entry
	walk(o, func(o fyne.CanvasObject) bool {
		if e, ok := o.(*widget.Entry); ok {
			out = append(out, e)
		}
		return false
	})
	return out
}

func findSelect(t *testing.T, o fyne.CanvasObject) *widget.Select {
	t.Helper()
	var s *widget.Select
	walk(o, func(o fyne.CanvasObject) bool { s, _ = o.(*widget.Select); return s != nil })
	if s == nil {
		t.Fatal("no agent choice")
	}
	return s
}

// statusText is every label of the dialog, joined.
func statusText(o fyne.CanvasObject) string {
	var out []string
	walk(o, func(o fyne.CanvasObject) bool {
		if l, ok := o.(*widget.Label); ok {
			out = append(out, l.Text)
		}
		return false
	})
	return strings.Join(out, "\n")
}

func (f *fakeClient) AgentCLIs(ctx context.Context) ([]supervisor.AgentCLI, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.agentReads++
	return slices.Clone(f.agents), nil
}

// AddProject records real adds (a dry run is asked on every change, and
// is not recorded).
func (f *fakeClient) AddProject(ctx context.Context, np supervisor.NewProject) (supervisor.AddedProject, error) {
	if !np.DryRun {
		arg := fmt.Sprintf("%s agent=%s command=%q settings=%v", np.Path, np.Agent, np.Command, np.Settings)
		if np.Setup != "" || len(np.Include) > 0 {
			arg += fmt.Sprintf(" setup=%q include=%q", np.Setup, np.Include)
		}
		f.record("AddProject", np.Name, arg)
	}
	f.mu.Lock()
	answer := f.addProject
	f.mu.Unlock()
	if answer == nil {
		return supervisor.AddedProject{Project: supervisor.ProjectInfo{Name: np.Name, Path: np.Path, Agent: np.Agent}}, nil
	}
	return answer(np)
}

// AgentNames answers as a station does: the built-ins it can run.
func (f *fakeClient) AgentNames(ctx context.Context) ([]string, error) {
	return []string{"claude", "codex", "gemini", "qwen"}, nil
}

// With no agent CLI found, the dialog and the empty board name the agents
// the station says it can run (GET /v1/agents?known=1), not a list of the
// dashboard's own: a station with another built-in shows it.
func TestAddProjectNamesTheStationsAgents(t *testing.T) {
	fake := newFake()
	u := newTestUI(t, fake, t0)
	names, _ := fake.AgentNames(context.Background())
	u.apply(Snapshot{Connected: true, AgentNames: names})
	u.ShowDashboard()
	defer u.dash.hide()
	if s := statusText(u.dash.win.Content()); !strings.Contains(s, "project add FOLDER [--agent claude|codex|gemini|qwen | --command") {
		t.Errorf("the empty board says %q, want the station's agents", s)
	}
	newAddProject(u, fake, u.dash.win, nil, func(f func()) { f() }).show()
	dlg := u.dash.win.Canvas().Overlays().Top()
	if dlg == nil {
		t.Fatal("no Add project dialog")
	}
	if s := statusText(dlg); !strings.Contains(s, "none of claude, codex, gemini, qwen; give the command to run") {
		t.Errorf("the dialog says %q, want the station's agents", s)
	}
}

// Add project shows what the folder suggests — the gate, the setup and a
// .worktreeinclude for its ignored .env — each with a box, and sends only
// what is ticked; it has a Gate field of its own. The step the agent
// needs is re-checked while the dialog is open, so one taken meanwhile
// goes without a field being edited.
func TestAddProjectOffersSuggestionsSentOnlyWhenTicked(t *testing.T) {
	fake := newFake()
	fake.agents = []supervisor.AgentCLI{{Name: "claude", Path: "/usr/bin/claude"}}
	trusted := false
	fake.addProject = func(np supervisor.NewProject) (supervisor.AddedProject, error) {
		got := supervisor.AddedProject{Project: supervisor.ProjectInfo{Name: "web", Path: np.Path, Agent: "claude", IdleWindow: "5m0s", BlockWindow: "5m0s", ReviewIdleWindow: "10m0s"},
			Suggested: &supervisor.SetupSuggestion{Setup: "npm ci", Because: "package-lock.json", Include: []string{".env*"}, Gate: "npm test", GateBecause: "package.json"}}
		if !trusted {
			got.Steps = []string{"Claude Code does not trust " + np.Path + " yet: run claude once in that folder and answer Yes"}
		}
		if !np.DryRun {
			// Refused, so the dialog stays open with what was ticked.
			return supervisor.AddedProject{}, &apitype.Error{Status: http.StatusBadRequest, Message: "refused for the test"}
		}
		return got, nil
	}
	u := newTestUI(t, fake, t0)
	u.apply(Snapshot{Connected: true})
	u.ShowDashboard()
	defer u.dash.hide()
	u.dash.win.Resize(fyne.NewSize(1280, 800))
	a := newAddProject(u, fake, u.dash.win, fake.agents, func(f func()) { f() })
	a.show()
	dlg := u.dash.win.Canvas().Overlays().Top()
	web := t.TempDir()
	a.folder.SetText(web)
	eventually(t, "the folder checked", func() bool { return !a.add.Disabled() })
	s := dialogText(dlg)
	for _, want := range []string{"npm test", "package.json", "npm ci", "package-lock.json", ".env*", "Program to run"} {
		if !strings.Contains(s, want) {
			t.Errorf("the dialog does not say %q:\n%s", want, s)
		}
	}
	if a.gate == nil || a.setup == nil {
		t.Fatal("Add project has no Gate or Setup field")
	}
	insideWindow(t, u.dash.win, dlg)
	stacked(t, dlg, a.sugBox)
	test.Tap(a.add)
	want := call{"AddProject", "", web + " agent=claude command=[] settings=map[]"}
	if got := nextCall(t, fake); got != want {
		t.Errorf("nothing ticked: call %+v, want %+v", got, want)
	}
	eventually(t, "the refusal said", func() bool { return strings.Contains(statusText(dlg), "refused for the test") })
	test.Tap(a.suggest["gate"])
	test.Tap(a.suggest["setup"])
	test.Tap(a.suggest["include"])
	if a.gate.Text != "npm test" || a.setup.Text != "npm ci" {
		t.Errorf("ticked: gate %q, setup %q", a.gate.Text, a.setup.Text)
	}
	eventually(t, "the form checked", func() bool { return !a.add.Disabled() })
	test.Tap(a.add)
	want.arg = web + ` agent=claude command=[] settings=map[gate:npm test] setup="npm ci" include=[".env*"]`
	if got := nextCall(t, fake); got != want {
		t.Errorf("all ticked: call %+v, want %+v", got, want)
	}
	trusted = true
	a.recheck()
	eventually(t, "the step gone after a re-check", func() bool { return !strings.Contains(statusText(dlg), "does not trust") })
}

// An open Add project dialog asks the station again by itself every few
// seconds: with no agent found when it opened, it looks for the agents
// again with nothing typed, so one installed meanwhile is offered. The
// dialog is opened as the tray's first line opens it; the test counts the
// station's answers only (the dialog's goroutines paint meanwhile).
func TestAddProjectRechecksByItself(t *testing.T) {
	fake := newFake()
	u := newTestUI(t, fake, t0)
	u.apply(Snapshot{Connected: true})
	u.Do(MenuLine{Action: ActAddProject})
	reads := func() int {
		fake.mu.Lock()
		defer fake.mu.Unlock()
		return fake.agentReads
	}
	testwait.Eventually(t, 3*recheckEvery, func() bool { return reads() >= 2 },
		"the open dialog to look for the agents again by itself", testwait.Later(func() string { return fmt.Sprint(reads(), " reads") }))
}
