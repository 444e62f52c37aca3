package app

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/buildstation/buildstation/supervisor"
)

// keyField is how Edit project shows one project key: its label in a
// person's words, the group it sits in, and a hint under the field when
// the label alone does not say enough.
type keyField struct {
	key, label, group, hint string
}

// keyFields are the keys Edit project knows by name, in the order shown.
// A key the station lists that is not here is shown too, under its own
// name, in the last group: the dialog offers every key the station takes.
var keyFields = []keyField{
	{key: "agent", label: "Agent", group: "Agent"},
	{key: "command", label: programLabel, group: "Agent", hint: "with Custom command…: the agent program and its arguments"},
	{key: "args", label: "Extra arguments", group: "Agent", hint: "added to the agent's own arguments"},
	{key: "permission_mode", label: "Permission mode", group: "Agent", hint: "empty keeps the agent's own; or default, acceptEdits, plan, auto, bypassPermissions"},
	{key: "backend", label: "Terminal", group: "Agent", hint: "pty, or tmux"},
	{key: "gate", label: "Gate", group: "Checks", hint: "the command that makes a commit green (none: every commit is)"},
	{key: "setup", label: "Setup", group: "Checks", hint: "run in each new worktree and gate checkout before work starts"},
	{key: "setup_timeout", label: "Setup time limit", group: "Checks"},
	{key: "review", label: "Review by an agent first", group: "Checks"},
	{key: "review_rounds", label: "Pull request rounds", group: "Checks", hint: "automatic rounds a pull request's requested changes may start"},
	{key: "idle_window", label: "Nudge after quiet", group: "Watchdog"},
	{key: "block_window", label: "Then block after", group: "Watchdog"},
	{key: "review_idle_window", label: "Review: nudge after", group: "Watchdog"},
	{key: "cpu_alive", label: "CPU that counts as life", group: "Watchdog", hint: "the agent's programs' share of one core, e.g. 10%"},
	{key: "breaker", label: "Pause the queue after", group: "Watchdog", hint: "this many blocks within this time, e.g. 3 in 10m; off"},
	{key: "nudge", label: "Nudge text", group: "Watchdog"},
	{key: "concurrency", label: "Tasks at once", group: "Limits"},
	{key: "daily_budget_usd", label: "Daily budget (US$)", group: "Limits", hint: "the queue pauses once the day's sessions cost this much"},
	{key: "path", label: "Folder", group: "Folder and git"},
	{key: "base", label: "Start branch", group: "Folder and git", hint: "branch new worktrees start from (default: the folder's current one)"},
	{key: "worktree_root", label: "Worktrees folder", group: "Folder and git"},
	{key: "remote", label: "Remote for task branches", group: "Folder and git"},
	{key: "stations", label: "Stations that may run it", group: "Folder and git", hint: "shared board only; names, separated by spaces"},
}

// editProject is the Edit project dialog: a field for every key the
// station says a project takes, filled with what config.toml says and
// the default greyed behind an empty one; the folder's .worktreeinclude;
// what the folder's files suggest, each taken only when ticked; and the
// agent's one-time steps, re-read while it is open. Save sends what
// changed: project set for the keys (an emptied field goes back to the
// default), and the .worktreeinclude on its own.
type editProject struct {
	projectForm
	cl      Client
	win     fyne.Window
	dlg     dialog.Dialog
	p       supervisor.ProjectInfo
	fields  map[string]fyne.CanvasObject
	was     map[string]string // each key's value as shown at first
	agent   *widget.Select
	checks  map[string]*widget.Check
	include *widget.Entry
	wasInc  string
	steps   *widget.Label
	body    *fyne.Container // the dialog's: laid out again when its head changes height
	status  *widget.Label
	form    *widget.Form
	save    *widget.Button
	run     func(func())
	// settle is how long typing in the folder field must pause before
	// the folder typed is read (0: at once, in tests); reads counts the
	// folders typed, so an answer for an older one is dropped.
	settle time.Duration
	reads  int
	// suggested is the suggestion the boxes offer; offered once they
	// were made (a re-read of the same suggestion keeps them as they are).
	suggested supervisor.SetupSuggestion
	offered   bool
}

func newEditProject(u *UI, cl Client, win fyne.Window, p supervisor.ProjectInfo, run func(func())) *editProject {
	e := &editProject{projectForm: newProjectForm(u), cl: cl, win: win, p: p, run: run, fields: map[string]fyne.CanvasObject{}, was: map[string]string{},
		checks: map[string]*widget.Check{}}
	e.include = widget.NewMultiLineEntry()
	e.include.SetPlaceHolder("none: worktrees get no ignored file\ne.g. .env*\nnode_modules/")
	e.include.SetMinRowsVisible(3)
	e.include.Disable() // until the folder's is read
	e.steps = widget.NewLabel("")
	e.steps.Wrapping = fyne.TextWrapWord
	e.steps.Importance = widget.WarningImportance
	e.steps.Hide()
	e.status = widget.NewLabel("")
	e.status.Wrapping = fyne.TextWrapWord
	e.save = widget.NewButtonWithIcon("Save", theme.ConfirmIcon(), e.submit)
	e.save.Importance = widget.HighImportance
	return e
}

// setting is key's setting as the station listed it.
func (e *editProject) setting(key string) (supervisor.ProjectSetting, bool) {
	i := slices.IndexFunc(e.p.Settings, func(s supervisor.ProjectSetting) bool { return s.Key == key })
	if i < 0 {
		return supervisor.ProjectSetting{}, false
	}
	return e.p.Settings[i], true
}

// entry is key's text field (nil when it has none).
func (e *editProject) entry(key string) *widget.Entry {
	en, _ := e.fields[key].(*widget.Entry)
	return en
}

func (e *editProject) show() {
	e.form = widget.NewForm()
	groups := map[string][]*widget.FormItem{}
	var order []string
	add := func(group string, it *widget.FormItem) {
		if _, ok := groups[group]; !ok {
			order = append(order, group)
		}
		groups[group] = append(groups[group], it)
	}
	known := map[string]bool{}
	for _, kf := range keyFields {
		known[kf.key] = true
		if s, ok := e.setting(kf.key); ok {
			add(kf.group, e.item(kf, s))
		}
	}
	for _, s := range e.p.Settings {
		if !known[s.Key] {
			add("Other", e.item(keyField{key: s.Key, label: s.Key, group: "Other"}, s))
		}
	}
	for _, g := range order {
		e.form.Append("", widget.NewLabelWithStyle(g, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		for _, it := range groups[g] {
			e.form.AppendItem(it)
			if g == "Checks" && it.Widget == e.fields["setup"] {
				// The files each worktree gets sit beside the setup.
				e.form.AppendItem(&widget.FormItem{Text: ".worktreeinclude", Widget: e.include,
					HintText: "ignored files (gitignore lines) each new worktree and gate checkout gets"})
			}
		}
	}
	e.agentChanged()
	if en := e.entry("path"); en != nil {
		// The suggestions follow the folder typed.
		en.OnChanged = func(string) { e.folderTyped() }
	}
	cancel := widget.NewButton("Cancel", func() { e.dlg.Hide() })
	// The suggestions sit above the fields, seen without scrolling.
	head := container.NewVBox(wrapped(e.p.Path, widget.LowImportance), e.steps, e.sugBox)
	e.body = container.NewBorder(head, container.NewVBox(e.status, container.NewHBox(layout.NewSpacer(), cancel, e.save)), nil, nil,
		container.NewVScroll(e.form))
	e.dlg = dialog.NewCustomWithoutButtons("Edit "+e.p.Name, e.body, e.win)
	e.dlg.Resize(fitIn(e.win, fyne.NewSize(820, 760)))
	stop := e.keepChecking(e.recheck)
	e.dlg.SetOnClosed(func() { e.closed = true; stop() })
	e.dlg.Show()
	e.recheck()
}

// item is key s's row: a choice, a box or a text field, holding the
// project's value, the default behind it.
func (e *editProject) item(kf keyField, s supervisor.ProjectSetting) *widget.FormItem {
	var w fyne.CanvasObject
	switch {
	case s.Key == "agent":
		w = e.agentChoice(s)
	case s.Type == "boolean":
		on := effective(s) == "true"
		c := widget.NewCheck("", nil)
		c.SetChecked(on)
		e.checks[s.Key] = c
		e.was[s.Key] = strconv.FormatBool(on)
		w = c
	default:
		var en *widget.Entry
		if s.Key == "nudge" {
			en = widget.NewMultiLineEntry()
			en.Wrapping = fyne.TextWrapWord
			en.SetMinRowsVisible(3)
		} else {
			en = widget.NewEntry()
		}
		en.SetText(s.Value)
		if s.Default != "" {
			en.SetPlaceHolder(plainValue(s.Type, s.Default) + " (default)")
		}
		e.was[s.Key] = s.Value
		w = en
	}
	e.fields[s.Key] = w
	return &widget.FormItem{Text: kf.label, Widget: w, HintText: kf.hint}
}

// effective is what applies for s: its value, else its default.
func effective(s supervisor.ProjectSetting) string {
	if s.Value != "" {
		return s.Value
	}
	return s.Default
}

// agentChoice offers the agents the station can run, the project's own
// when it names another, and a custom command.
func (e *editProject) agentChoice(s supervisor.ProjectSetting) *widget.Select {
	opts := slices.Clone(e.u.snap.AgentNames)
	cur := effective(s)
	cmd, _ := e.setting("command")
	if cmd.Value != "" {
		cur = customAgent
	} else if cur != "" && !slices.Contains(opts, cur) {
		opts = append(opts, cur)
	}
	e.agent = widget.NewSelect(append(opts, customAgent), func(string) { e.agentChanged() })
	e.agent.SetSelected(cur)
	e.was["agent"] = cur
	return e.agent
}

// agentChanged turns the program field on for a custom command only.
func (e *editProject) agentChanged() {
	en := e.entry("command")
	if en == nil || e.agent == nil {
		return
	}
	commandFollows(e.agent, en, e.form)
}

// folderTyped reads the folder the field now holds once typing pauses:
// its files' suggestions take the old folder's place.
func (e *editProject) folderTyped() {
	e.reads++
	n := e.reads
	if e.settle <= 0 {
		e.recheck()
		return
	}
	time.AfterFunc(e.settle, func() {
		fyne.Do(func() {
			if n == e.reads {
				e.recheck()
			}
		})
	})
}

// recheck reads the project's folder again — the one typed in the folder
// field, when it differs from the project's: its .worktreeinclude (the
// first time), what its files suggest, the steps its agent still needs.
func (e *editProject) recheck() {
	if e.closed {
		return
	}
	name, path, n := e.p.Name, "", e.reads
	if en := e.entry("path"); en != nil && strings.TrimSpace(en.Text) != "" && strings.TrimSpace(en.Text) != e.p.Path {
		path = strings.TrimSpace(en.Text)
	}
	e.run(func() {
		ctx, cancel := context.WithTimeout(e.u.ctx, 20*time.Second)
		defer cancel()
		ps, err := e.cl.ProjectSetup(ctx, name, path)
		fyne.Do(func() {
			if n == e.reads { // no other folder typed meanwhile
				e.read(ps, err)
			}
		})
	})
}

// read shows what recheck read.
func (e *editProject) read(ps supervisor.ProjectSetup, err error) {
	defer e.relayout()
	if err != nil {
		e.steps.SetText("Could not read the project's folder: " + sentence(err))
		e.steps.Show()
		return
	}
	if e.include.Disabled() {
		e.wasInc = ps.Include
		e.include.SetText(ps.Include)
		e.include.Enable()
		e.form.Refresh() // its label follows: no longer greyed
	}
	if len(ps.Steps) > 0 {
		e.steps.SetText("Before its next task: " + strings.Join(ps.Steps, " "))
		e.steps.Show()
	} else {
		e.steps.SetText("")
		e.steps.Hide() // no empty line under the folder
	}
	e.showSuggested(ps.Suggested)
}

// showSuggested offers each suggestion that differs from what the project
// has, a box each; the boxes of a suggestion shown keep their state, and
// a new suggestion (another folder typed) takes the old one's place.
func (e *editProject) showSuggested(s supervisor.SetupSuggestion) {
	if e.offered && sameSuggestion(s, e.suggested) {
		return // the boxes keep their state
	}
	e.offered, e.suggested = true, s
	e.suggest = map[string]*widget.Check{}
	if g := e.entry("gate"); g != nil && s.Gate != "" && s.Gate != g.Text {
		e.suggest["gate"] = suggestCheck(fmt.Sprintf("Gate: %s (found %s)", s.Gate, s.GateBecause), g, s.Gate)
	}
	if st := e.entry("setup"); st != nil && s.Setup != "" && s.Setup != st.Text {
		e.suggest["setup"] = suggestCheck(fmt.Sprintf("Setup: %s (found %s)", s.Setup, s.Because), st, s.Setup)
	}
	if len(s.Include) > 0 {
		lines := strings.Join(s.Include, "\n")
		e.suggest["include"] = widget.NewCheck(fmt.Sprintf("Add to .worktreeinclude: %s (ignored .env files each worktree needs)", strings.Join(s.Include, " ")), func(on bool) {
			text := e.include.Text
			switch {
			case on && !strings.Contains(text, lines):
				if text != "" && !strings.HasSuffix(text, "\n") {
					text += "\n"
				}
				e.include.SetText(text + lines + "\n")
			case !on:
				e.include.SetText(strings.Replace(text, lines+"\n", "", 1))
			}
		})
	}
	e.showSuggestions(widget.NewLabel(suggestHead))
}

// relayout lays the dialog out again after its head (the steps, the
// suggestions) changed height: a box refreshed alone keeps the height it
// had, its lines drawn over the fields below.
func (e *editProject) relayout() {
	if e.body != nil {
		e.body.Refresh()
	}
}

// changed are the keys whose fields differ from what was shown: an
// emptied field is "", which puts the default back.
func (e *editProject) changed() map[string]string {
	set := map[string]string{}
	for key, w := range e.fields {
		var now string
		switch v := w.(type) {
		case *widget.Entry:
			if key == "command" && e.agent != nil && e.agent.Selected != customAgent {
				continue // an agent chosen: project set drops the command
			}
			now = strings.TrimSpace(v.Text)
		case *widget.Check:
			now = strconv.FormatBool(v.Checked)
		case *widget.Select:
			if v.Selected == customAgent {
				continue // the command says it
			}
			now = v.Selected
		}
		if now != e.was[key] {
			set[key] = now
		}
	}
	return set
}

// submit saves what changed; a refusal stays in the dialog, with what
// was typed.
func (e *editProject) submit() {
	set := e.changed()
	inc, incChanged := e.include.Text, !e.include.Disabled() && e.include.Text != e.wasInc
	if len(set) == 0 && !incChanged {
		e.dlg.Hide()
		return
	}
	e.save.Disable()
	name := e.p.Name
	e.run(func() {
		ctx, cancel := context.WithTimeout(e.u.ctx, 30*time.Second)
		defer cancel()
		// The .worktreeinclude is written through the project's folder:
		// a folder changed in the same save is saved first, so the file
		// lands in the folder the project now names.
		_, moved := set["path"]
		var err error
		if incChanged && !moved {
			err = e.cl.SetInclude(ctx, name, inc)
		}
		if err == nil && len(set) > 0 {
			_, err = e.cl.SetProjectSettings(ctx, name, set)
		}
		if err == nil && incChanged && moved {
			err = e.cl.SetInclude(ctx, name, inc)
		}
		fyne.Do(func() {
			e.save.Enable()
			if err != nil {
				e.status.Importance = widget.DangerImportance
				e.status.SetText(sentence(err))
				return
			}
			e.u.o.Log.Info("project edited from the dashboard", "project", name, "keys", len(set), "include", incChanged)
			e.dlg.Hide()
		})
		e.u.conn.Refresh()
	})
}

// plainValue is a default as a person reads it: a duration in words
// ("5 min", "1 h 30 min", "45 s", as supervisor.Spoken says it), anything
// else as it is.
func plainValue(typ, v string) string {
	if typ != "duration" {
		return v
	}
	return supervisor.SpokenText(v)
}
