package app

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/buildstation/buildstation/supervisor"
)

// updateProjects redraws the Projects tab: each project's effective
// windows and its queue's pause switch.
func (d *dashboard) updateProjects() {
	u := d.u
	var objs []fyne.CanvasObject
	if len(u.snap.Projects) > 0 {
		all := "Pause all queues"
		pause := true
		if allPaused(u.snap) {
			all, pause = "Resume all queues", false
		}
		objs = append(objs, container.NewHBox(u.addProjectButton(), layout.NewSpacer(),
			widget.NewButtonWithIcon(all, pauseIcon(pause), func() { u.pauseAll(pause) })))
	} else if u.snap.Connected {
		objs = append(objs, container.NewHBox(u.addProjectButton(),
			widget.NewLabel("No projects yet: a project is a folder and the agent that works in it.")))
	}
	for _, p := range u.snap.Projects {
		objs = append(objs, d.projectRow(p), widget.NewSeparator())
	}
	d.projects.Objects = objs
	d.projects.Refresh()
}

// ProjectSummary is a project's settings in one line.
func ProjectSummary(p supervisor.ProjectInfo) string {
	parts := []string{
		"agent " + p.Agent,
		"idle " + p.IdleWindow,
		"block " + p.BlockWindow,
		"review idle " + p.ReviewIdleWindow,
		fmt.Sprintf("concurrency %d", p.Concurrency),
	}
	if p.Review {
		parts = append(parts, "review on")
	}
	if p.Gate != "" {
		parts = append(parts, "gate: "+p.Gate)
	}
	return strings.Join(parts, " · ")
}

func (d *dashboard) projectRow(p supervisor.ProjectInfo) fyne.CanvasObject {
	u := d.u
	name := widget.NewLabelWithStyle(p.Name, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	state := fmt.Sprintf("%d running · %d queued", p.Running, p.Queued)
	if p.Paused {
		state += " · paused"
		if p.PauseReason != "" {
			state += ": " + p.PauseReason
		}
	}
	info := widget.NewLabel(ProjectSummary(p))
	info.Wrapping = fyne.TextWrapWord
	path := widget.NewLabel(p.Path)
	path.Importance = widget.LowImportance
	st := widget.NewLabel(state)
	if p.Paused {
		st.Importance = widget.WarningImportance
	}
	name0 := p.Name
	var toggle *widget.Button
	if p.Paused {
		toggle = widget.NewButtonWithIcon("Resume", theme.MediaPlayIcon(), func() {
			u.act(d.win, "resume "+name0, func(ctx context.Context, cl Client) error { return cl.Resume(ctx, name0) })
		})
	} else {
		toggle = widget.NewButtonWithIcon("Pause", theme.MediaPauseIcon(), func() {
			u.act(d.win, "pause "+name0, func(ctx context.Context, cl Client) error {
				return cl.Pause(ctx, name0, "paused from the dashboard")
			})
		})
	}
	edit := widget.NewButtonWithIcon("Edit…", theme.DocumentCreateIcon(), func() { d.editProject(p) })
	return container.NewBorder(nil, nil, nil, container.NewVBox(toggle, edit), container.NewVBox(name, path, info, st))
}

// editProject lets a person change a project's per-project overrides. The
// station writes them to config.toml, validates them first (a bad value is
// refused with the file, line and key) and applies them without a restart;
// only the fields changed here are sent.
func (d *dashboard) editProject(p supervisor.ProjectInfo) {
	form, changed := projectForm(p)
	dialog.ShowCustomConfirm("Edit "+p.Name, "Save", "Cancel", form, func(ok bool) {
		set := changed()
		if !ok || len(set) == 0 {
			return
		}
		name := p.Name
		d.u.act(d.win, "edit "+name, func(ctx context.Context, cl Client) error {
			_, err := cl.SetProjectSettings(ctx, name, set)
			return err
		})
	}, d.win)
}

// projectForm builds the edit form and a func returning the keys changed.
func projectForm(p supervisor.ProjectInfo) (fyne.CanvasObject, func() map[string]string) {
	type field struct {
		key, label, was string
		entry           *widget.Entry
	}
	fields := []*field{
		{key: "idle_window", label: "Idle window", was: p.IdleWindow},
		{key: "block_window", label: "Block window", was: p.BlockWindow},
		{key: "review_idle_window", label: "Review idle window", was: p.ReviewIdleWindow},
		{key: "cpu_alive", label: "CPU that counts as life"},
		{key: "breaker", label: "Circuit breaker"},
		{key: "nudge", label: "Nudge text"},
	}
	hints := map[string]string{"cpu_alive": "unchanged (e.g. 10%)", "breaker": "unchanged (e.g. 3 in 10m, off)", "nudge": "unchanged"}
	form := widget.NewForm()
	for _, f := range fields {
		f.entry = widget.NewEntry()
		f.entry.SetText(f.was)
		f.entry.SetPlaceHolder(hints[f.key])
		form.Append(f.label, f.entry)
	}
	return form, func() map[string]string {
		set := map[string]string{}
		for _, f := range fields {
			if v := strings.TrimSpace(f.entry.Text); v != f.was && v != "" {
				set[f.key] = v
			}
		}
		return set
	}
}

// pauseIcon is the icon of a button that pauses (pause bars) or resumes
// (play).
func pauseIcon(pause bool) fyne.Resource {
	if pause {
		return theme.MediaPauseIcon()
	}
	return theme.MediaPlayIcon()
}
