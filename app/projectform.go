package app

import (
	"context"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// projectForm is what Add project and Edit project share: the re-check
// while the dialog is open, the box of what the folder's files suggest,
// and the agent choice that turns the command field on.
type projectForm struct {
	u *UI
	// suggest are the suggestions' boxes by what they fill ("gate",
	// "setup", "include"), shown in sugBox in that order.
	suggest map[string]*widget.Check
	sugBox  *fyne.Container
	// recheckEvery is how often the open dialog asks the station again,
	// unasked: a step taken (Claude Code told to trust the folder) or an
	// agent installed meanwhile shows without a field being edited (0:
	// never; tests call recheck).
	recheckEvery time.Duration
	closed       bool
}

func newProjectForm(u *UI) projectForm {
	return projectForm{u: u, suggest: map[string]*widget.Check{}, sugBox: container.NewVBox()}
}

// keepChecking calls recheck on Fyne's goroutine every recheckEvery
// while the dialog is open; the func it returns stops it.
func (f *projectForm) keepChecking(recheck func()) func() {
	if f.recheckEvery <= 0 {
		return func() {}
	}
	ctx, cancel := context.WithCancel(f.u.ctx)
	f.u.bg.Go(func() {
		tick := time.NewTicker(f.recheckEvery)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				fyne.Do(recheck)
			}
		}
	})
	return cancel
}

// showSuggestions puts the suggestions' boxes under head in sugBox, in
// order; with none the box stays empty.
func (f *projectForm) showSuggestions(head fyne.CanvasObject) {
	f.sugBox.Objects = nil
	if len(f.suggest) == 0 {
		return
	}
	f.sugBox.Add(head)
	for _, k := range []string{"gate", "setup", "include"} {
		if c := f.suggest[k]; c != nil {
			f.sugBox.Add(c)
		}
	}
}

// suggestHead is the line above the suggestions.
const suggestHead = "Suggested from the folder's files (tick to take):"

// commandFollows turns the command field on for a custom command and off
// for an agent chosen by name; the form's label follows it (grey only
// while it is off).
func commandFollows(agent *widget.Select, command *widget.Entry, form *widget.Form) {
	if agent.Selected == customAgent {
		command.Enable()
	} else {
		command.Disable()
	}
	if form != nil {
		form.Refresh()
	}
}
