package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// customAgent is the agent choice that runs a command the person types.
const customAgent = "Custom command…"

// recheckEvery is how often an open Add or Edit project dialog asks the
// station again by itself: often enough that a step taken in a terminal
// shows within moments, rarely enough to cost nothing (a dry run reads a
// few files).
const recheckEvery = 4 * time.Second

// addProjectButton opens Add project…: shown on the Projects view.
func (u *UI) addProjectButton() *widget.Button {
	b := widget.NewButtonWithIcon("Add project…", theme.ContentAddIcon(), u.showAddProject)
	b.Importance = widget.HighImportance
	return b
}

// showAddProject asks the station which agent CLIs this machine has, then
// opens the Add project dialog over the dashboard.
func (u *UI) showAddProject() { u.whenConnected(u.showAddProjectNow) }

func (u *UI) showAddProjectNow() {
	parent := u.dashboardWindow()
	cl := u.conn.Client()
	if cl == nil {
		u.showError(parent, fmt.Errorf("add a project: %w", errNoStation))
		return
	}
	u.call(func() {
		ctx, cancel := context.WithTimeout(u.ctx, 20*time.Second)
		defer cancel()
		agents, err := cl.AgentCLIs(ctx)
		fyne.Do(func() {
			if err != nil {
				u.showError(parent, fmt.Errorf("add a project: %w", err))
				return
			}
			a := newAddProject(u, cl, parent, agents, u.call)
			a.settle = 300 * time.Millisecond
			a.recheckEvery = recheckEvery
			a.show()
		})
	})
}

// addProject is the Add project dialog: a folder (typed, or picked with
// Choose…), a name, the agent (a CLI found here, with its version, or a
// custom command) and the windows, each shown with the station's default.
// Every change asks the station to check it all (a dry run), so a bad
// folder, a name taken or an agent missing is said in one sentence under
// the form before anything is written, and Add stays off until the
// station agrees; a refused Add keeps what was typed.
type addProject struct {
	projectForm
	cl      Client
	win     fyne.Window
	dlg     dialog.Dialog
	agents  []supervisor.AgentCLI
	folder  *widget.Entry
	name    *widget.Entry
	agent   *widget.Select
	command *widget.Entry
	windows map[string]*widget.Entry // by config key
	// gate and setup are the project's gate and setup; suggested is the
	// newest dry run's suggestion (projectForm.suggest its boxes).
	gate      *widget.Entry
	setup     *widget.Entry
	suggested supervisor.SetupSuggestion
	scroll    *container.Scroll // the column the form, suggestions and status share
	form      *widget.Form
	status    *widget.Label
	add       *widget.Button
	checks    int // the newest check's number: older answers are dropped
	// run runs a call to the station off Fyne's goroutine (u.bg.Go);
	// tests run it in line, as the test driver has no such goroutine.
	run func(func())
	// settle is how long typing must pause before the form is checked:
	// one check per pause, not one per key (0: at once, in tests).
	settle time.Duration
}

// windowKeys are the windows the dialog shows, in order, each labelled
// as Edit project labels it (keyFields), so a window has one name.
var windowKeys = []struct{ key, label string }{
	{"idle_window", keyLabel("idle_window")},
	{"block_window", keyLabel("block_window")},
	{"review_idle_window", keyLabel("review_idle_window")},
}

// keyLabel is how Edit project labels a project key; the key itself for
// one it does not know by name.
func keyLabel(key string) string {
	for _, kf := range keyFields {
		if kf.key == key {
			return kf.label
		}
	}
	return key
}

func newAddProject(u *UI, cl Client, win fyne.Window, agents []supervisor.AgentCLI, run func(func())) *addProject {
	a := &addProject{projectForm: newProjectForm(u), cl: cl, win: win, agents: agents, windows: map[string]*widget.Entry{}, run: run}
	a.folder = widget.NewEntry()
	a.folder.SetPlaceHolder("the project's folder, e.g. " + filepath.Join(userHome(), "src", "web"))
	a.name = widget.NewEntry()
	a.command = widget.NewEntry()
	a.command.SetPlaceHolder("the agent program and its arguments, e.g. aider --yes")
	a.gate = widget.NewEntry()
	a.gate.SetPlaceHolder("what makes a commit green, e.g. make test (none: every commit is)")
	a.setup = widget.NewEntry()
	a.setup.SetPlaceHolder("run in each new worktree before work starts, e.g. npm ci (optional)")
	var options []string
	for _, c := range agents {
		options = append(options, agentLabel(c))
	}
	options = append(options, customAgent)
	a.agent = widget.NewSelect(options, func(string) { a.agentChanged() })
	for _, w := range windowKeys {
		a.windows[w.key] = widget.NewEntry()
	}
	a.status = widget.NewLabel("")
	a.status.Wrapping = fyne.TextWrapWord
	a.add = widget.NewButtonWithIcon("Add", theme.ConfirmIcon(), a.submit)
	a.add.Importance = widget.HighImportance
	a.add.Disable()
	a.agent.SetSelected(options[0])
	for _, e := range append([]*widget.Entry{a.folder, a.name, a.command, a.gate, a.setup}, a.windowEntries()...) {
		e.OnChanged = func(string) { a.tickHeld(); a.check() }
	}
	return a
}

// tickHeld ticks each suggestion's box whose field holds its command,
// typed or ticked, and unticks it when the field says something else: a
// box left empty beside a field that holds it reads as not taken.
func (a *addProject) tickHeld() {
	for key, e := range map[string]*widget.Entry{"gate": a.gate, "setup": a.setup} {
		c, value := a.suggest[key], a.suggested.Gate
		if key == "setup" {
			value = a.suggested.Setup
		}
		if c == nil || e == nil {
			continue
		}
		if held := strings.TrimSpace(e.Text) == value; held != c.Checked {
			c.SetChecked(held)
		}
	}
}

// agentLabel is how an agent CLI reads in the choice: its name and version.
func agentLabel(c supervisor.AgentCLI) string {
	if c.Version == "" {
		return c.Name
	}
	return c.Name + " — " + c.Version
}

func (a *addProject) windowEntries() []*widget.Entry {
	out := make([]*widget.Entry, 0, len(windowKeys))
	for _, w := range windowKeys {
		out = append(out, a.windows[w.key])
	}
	return out
}

func (a *addProject) show() {
	form := widget.NewForm(
		widget.NewFormItem("Folder", container.NewBorder(nil, nil, nil,
			widget.NewButtonWithIcon("Choose…", theme.FolderOpenIcon(), a.choose), a.folder)),
		widget.NewFormItem("Name", a.name),
		widget.NewFormItem("Agent", a.agent),
		widget.NewFormItem(programLabel, a.command),
		widget.NewFormItem("Gate", a.gate),
		widget.NewFormItem("Setup", a.setup),
	)
	for _, w := range windowKeys {
		form.Append(w.label, a.windows[w.key])
	}
	a.form = form
	found := "Agents found on this machine: none; give the command to run."
	if known := a.u.snap.AgentNames; len(known) > 0 {
		found = "Agents found on this machine: none of " + strings.Join(known, ", ") + "; give the command to run."
	}
	if len(a.agents) > 0 {
		var names []string
		for _, c := range a.agents {
			names = append(names, c.Name)
		}
		found = "Agents found on this machine: " + strings.Join(names, ", ") + "."
	}
	hint := widget.NewLabel(found + " Empty fields take the station's defaults, shown greyed.")
	hint.Wrapping = fyne.TextWrapWord
	hint.Importance = widget.LowImportance
	cancel := widget.NewButton("Cancel", func() { a.dlg.Hide() })
	a.scroll = container.NewVScroll(container.NewVBox(form, a.sugBox, hint, a.status))
	body := container.NewBorder(nil, container.NewHBox(layout.NewSpacer(), cancel, a.add), nil, nil, a.scroll)
	a.dlg = dialog.NewCustomWithoutButtons("Add project", body, a.win)
	a.dlg.Resize(fitIn(a.win, fyne.NewSize(720, 720)))
	stop := a.keepChecking(a.recheck)
	a.dlg.SetOnClosed(func() { a.closed = true; stop() })
	a.dlg.Show()
	a.win.Canvas().Focus(a.folder)
	a.check()
}

// recheck asks the station again what it makes of the form, as a check
// does, without turning Add off meanwhile; with no agent found yet, it
// looks for the agents again (one installed meanwhile is offered).
func (a *addProject) recheck() {
	if a.closed {
		return
	}
	if len(a.agents) == 0 {
		a.run(func() {
			ctx, cancel := context.WithTimeout(a.u.ctx, 20*time.Second)
			defer cancel()
			agents, err := a.cl.AgentCLIs(ctx)
			fyne.Do(func() {
				if err == nil && len(agents) > 0 && len(a.agents) == 0 {
					a.setAgents(agents)
				}
			})
		})
	}
	np := a.request(true)
	if np.Path == "" || (a.agent.Selected == customAgent && len(np.Command) == 0) {
		return
	}
	a.checks++
	a.ask(a.checks, np)
}

// setAgents offers agents found after the dialog opened.
func (a *addProject) setAgents(agents []supervisor.AgentCLI) {
	a.agents = agents
	var options []string
	for _, c := range agents {
		options = append(options, agentLabel(c))
	}
	a.agent.Options = append(options, customAgent)
	if a.agent.Selected == customAgent && strings.TrimSpace(a.command.Text) == "" {
		a.agent.SetSelected(options[0])
	}
	a.agent.Refresh()
}

// fitIn is want, or less where win is smaller: a dialog stays inside its
// window, its body scrolling.
func fitIn(win fyne.Window, want fyne.Size) fyne.Size {
	have := win.Canvas().Size()
	if have.Width > 0 && want.Width > have.Width-40 {
		want.Width = have.Width - 40
	}
	if have.Height > 0 && want.Height > have.Height-40 {
		want.Height = have.Height - 40
	}
	return want
}

// programLabel is the label of the field that holds an agent's program
// and arguments, in a person's words.
const programLabel = "Program to run"

// showSuggested offers what the folder's files suggest, a box each,
// ticked only by the person; the boxes of a suggestion already shown
// keep their state.
func (a *addProject) showSuggested(s *supervisor.SetupSuggestion) {
	var sug supervisor.SetupSuggestion
	if s != nil {
		sug = *s
	}
	if sameSuggestion(sug, a.suggested) && len(a.sugBox.Objects) > 0 {
		return
	}
	a.suggested = sug
	a.suggest = map[string]*widget.Check{}
	if sug.Gate != "" {
		a.suggest["gate"] = suggestCheck(fmt.Sprintf("Gate: %s (found %s)", sug.Gate, sug.GateBecause), a.gate, sug.Gate)
	}
	if sug.Setup != "" {
		a.suggest["setup"] = suggestCheck(fmt.Sprintf("Setup: %s (found %s)", sug.Setup, sug.Because), a.setup, sug.Setup)
	}
	if len(sug.Include) > 0 {
		a.suggest["include"] = widget.NewCheck(fmt.Sprintf("Write a .worktreeinclude with %s: the ignored .env files each task's worktree needs", strings.Join(sug.Include, " ")), nil)
	}
	a.tickHeld()
	a.showSuggestions(widget.NewLabelWithStyle(suggestHead, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	a.relayout()
}

// relayout lays the column out again after the suggestions or the status
// changed height: a box refreshed alone keeps the height it had, its
// lines drawn over what follows it.
func (a *addProject) relayout() {
	if a.scroll != nil {
		a.scroll.Refresh()
	}
}

func sameSuggestion(x, y supervisor.SetupSuggestion) bool {
	return x.Gate == y.Gate && x.Setup == y.Setup && strings.Join(x.Include, "\n") == strings.Join(y.Include, "\n")
}

// suggestCheck is a box that, ticked, puts value in e, and unticked takes
// it out again (unless the person changed it meanwhile).
func suggestCheck(text string, e *widget.Entry, value string) *widget.Check {
	return widget.NewCheck(text, func(on bool) {
		switch {
		case on:
			e.SetText(value)
		case e.Text == value:
			e.SetText("")
		}
	})
}

// choose opens the folder picker where the typed folder is (or the
// person's home), and puts the folder picked in the form.
func (a *addProject) choose() {
	fd := dialog.NewFolderOpen(func(dir fyne.ListableURI, err error) {
		if err != nil || dir == nil {
			return
		}
		a.folder.SetText(dir.Path())
	}, a.win)
	start := strings.TrimSpace(a.folder.Text)
	if fi, err := os.Stat(start); err != nil || !fi.IsDir() {
		start = userHome()
	}
	if l, err := storage.ListerForURI(storage.NewFileURI(start)); err == nil {
		fd.SetLocation(l)
	}
	fd.Resize(fyne.NewSize(900, 640))
	fd.Show()
}

func userHome() string {
	h, err := os.UserHomeDir()
	if err != nil {
		return string(filepath.Separator)
	}
	return h
}

// agentChanged turns the command field on for a custom command.
func (a *addProject) agentChanged() {
	commandFollows(a.agent, a.command, a.form)
	a.check()
}

// request is what the form asks for.
func (a *addProject) request(dry bool) supervisor.NewProject {
	np := supervisor.NewProject{Path: strings.TrimSpace(a.folder.Text), Name: strings.TrimSpace(a.name.Text), DryRun: dry}
	if a.agent.Selected == customAgent {
		np.Command = strings.Fields(a.command.Text)
	} else if name, _, _ := strings.Cut(a.agent.Selected, " — "); name != "" {
		np.Agent = name
	}
	for _, w := range windowKeys {
		if v := strings.TrimSpace(a.windows[w.key].Text); v != "" {
			if np.Settings == nil {
				np.Settings = map[string]string{}
			}
			np.Settings[w.key] = v
		}
	}
	if v := strings.TrimSpace(a.gate.Text); v != "" {
		if np.Settings == nil {
			np.Settings = map[string]string{}
		}
		np.Settings["gate"] = v
	}
	np.Setup = strings.TrimSpace(a.setup.Text)
	if c := a.suggest["include"]; c != nil && c.Checked {
		np.Include = slices.Clone(a.suggested.Include)
	}
	return np
}

// check asks the station whether the form would be added, and shows what
// it says. Only the newest answer is shown.
func (a *addProject) check() {
	if a.status == nil || a.add == nil {
		return // still being built
	}
	np := a.request(true)
	a.add.Disable()
	a.checks++ // an answer on its way is out of date now
	n := a.checks
	switch {
	case np.Path == "":
		a.say("Choose the project's folder.", widget.MediumImportance)
		return
	case a.agent.Selected == customAgent && len(np.Command) == 0:
		a.say("Type the command that runs the agent.", widget.MediumImportance)
		return
	}
	if a.settle > 0 {
		time.AfterFunc(a.settle, func() {
			fyne.Do(func() {
				if n == a.checks {
					a.ask(n, np)
				}
			})
		})
		return
	}
	a.ask(n, np)
}

// ask sends check number n's dry run and shows its answer if no newer
// check was made meanwhile.
func (a *addProject) ask(n int, np supervisor.NewProject) {
	a.run(func() {
		ctx, cancel := context.WithTimeout(a.u.ctx, 20*time.Second)
		defer cancel()
		got, err := a.cl.AddProject(ctx, np)
		fyne.Do(func() {
			if n == a.checks {
				a.checked(got, err)
			}
		})
	})
}

// checked shows a dry run's answer: the defaults in the empty windows, the
// steps the agent still needs, or why the station refuses.
func (a *addProject) checked(got supervisor.AddedProject, err error) {
	if err != nil {
		a.say(sentence(err), widget.DangerImportance)
		return
	}
	p := got.Project
	a.name.SetPlaceHolder(p.Name)
	a.showSuggested(got.Suggested)
	defaults := map[string]string{"idle_window": p.IdleWindow, "block_window": p.BlockWindow, "review_idle_window": p.ReviewIdleWindow}
	for k, e := range a.windows {
		if strings.TrimSpace(e.Text) == "" {
			e.SetPlaceHolder(plainValue("duration", defaults[k]) + " (default)")
		}
	}
	a.add.Enable()
	if len(got.Steps) > 0 {
		a.say("Before its first task: "+strings.Join(got.Steps, " "), widget.WarningImportance)
		return
	}
	a.say(fmt.Sprintf("Ready: project %s in %s, agent %s.", p.Name, p.Path, p.Agent), widget.SuccessImportance)
}

func (a *addProject) say(text string, imp widget.Importance) {
	a.status.Importance = imp
	a.status.SetText(text)
	a.relayout()
}

// submit adds the project for real. A refusal stays in the dialog, with
// what was typed; once added, the steps the agent needs are said again.
func (a *addProject) submit() {
	np := a.request(false)
	a.add.Disable()
	a.run(func() {
		ctx, cancel := context.WithTimeout(a.u.ctx, 30*time.Second)
		defer cancel()
		got, err := a.cl.AddProject(ctx, np)
		fyne.Do(func() {
			if err != nil {
				a.say(sentence(err), widget.DangerImportance)
				a.add.Enable()
				return
			}
			a.dlg.Hide()
			a.u.o.Log.Info("project added from the dashboard", "project", got.Project.Name, "path", got.Project.Path, "steps", len(got.Steps))
			if len(got.Steps) > 0 {
				dialog.ShowInformation("Before "+got.Project.Name+"'s first task", strings.Join(got.Steps, "\n\n"), a.win)
			}
		})
		a.u.conn.Refresh()
	})
}

// sentence is what the station said, without the HTTP wrapping: one
// sentence that says what to do.
func sentence(err error) string {
	var ae *apitype.Error
	if errors.As(err, &ae) && ae.Message != "" {
		return ae.Message
	}
	return err.Error()
}
