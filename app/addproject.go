package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
	u       *UI
	cl      Client
	win     fyne.Window
	dlg     dialog.Dialog
	agents  []supervisor.AgentCLI
	folder  *widget.Entry
	name    *widget.Entry
	agent   *widget.Select
	command *widget.Entry
	windows map[string]*widget.Entry // by config key
	status  *widget.Label
	add     *widget.Button
	checks  int // the newest check's number: older answers are dropped
	// run runs a call to the station off Fyne's goroutine (u.bg.Go);
	// tests run it in line, as the test driver has no such goroutine.
	run func(func())
	// settle is how long typing must pause before the form is checked:
	// one check per pause, not one per key (0: at once, in tests).
	settle time.Duration
}

// windowKeys are the windows the dialog shows, in order, with their labels.
var windowKeys = []struct{ key, label string }{
	{"idle_window", "Idle window"},
	{"block_window", "Block window"},
	{"review_idle_window", "Review idle window"},
}

func newAddProject(u *UI, cl Client, win fyne.Window, agents []supervisor.AgentCLI, run func(func())) *addProject {
	a := &addProject{u: u, cl: cl, win: win, agents: agents, windows: map[string]*widget.Entry{}, run: run}
	a.folder = widget.NewEntry()
	a.folder.SetPlaceHolder("the project's folder, e.g. " + filepath.Join(userHome(), "src", "web"))
	a.name = widget.NewEntry()
	a.command = widget.NewEntry()
	a.command.SetPlaceHolder("the program and its arguments, e.g. aider --yes")
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
	for _, e := range append([]*widget.Entry{a.folder, a.name, a.command}, a.windowEntries()...) {
		e.OnChanged = func(string) { a.check() }
	}
	return a
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
		widget.NewFormItem("Command", a.command),
	)
	for _, w := range windowKeys {
		form.Append(w.label, a.windows[w.key])
	}
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
	hint := widget.NewLabel(found + " Empty windows take the station's defaults, shown greyed.")
	hint.Wrapping = fyne.TextWrapWord
	hint.Importance = widget.LowImportance
	cancel := widget.NewButton("Cancel", func() { a.dlg.Hide() })
	body := container.NewVBox(form, hint, a.status, container.NewHBox(layout.NewSpacer(), cancel, a.add))
	a.dlg = dialog.NewCustomWithoutButtons("Add project", body, a.win)
	a.dlg.Resize(fyne.NewSize(660, 560))
	a.dlg.Show()
	a.win.Canvas().Focus(a.folder)
	a.check()
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
	if a.agent.Selected == customAgent {
		a.command.Enable()
	} else {
		a.command.Disable()
	}
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
	defaults := map[string]string{"idle_window": p.IdleWindow, "block_window": p.BlockWindow, "review_idle_window": p.ReviewIdleWindow}
	for k, e := range a.windows {
		if strings.TrimSpace(e.Text) == "" {
			e.SetPlaceHolder(defaults[k] + " (default)")
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
