package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
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
		"idle " + supervisor.SpokenText(p.IdleWindow),
		"block " + supervisor.SpokenText(p.BlockWindow),
		"review idle " + supervisor.SpokenText(p.ReviewIdleWindow),
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

// editProject opens Edit project for p over the dashboard.
func (d *dashboard) editProject(p supervisor.ProjectInfo) {
	cl := d.u.conn.Client()
	if cl == nil {
		d.u.showError(d.win, fmt.Errorf("edit %s: %w", p.Name, errNoStation))
		return
	}
	e := newEditProject(d.u, cl, d.win, p, d.u.call)
	e.recheckEvery, e.settle = recheckEvery, 300*time.Millisecond
	e.show()
}

// pauseIcon is the icon of a button that pauses (pause bars) or resumes
// (play).
func pauseIcon(pause bool) fyne.Resource {
	if pause {
		return theme.MediaPauseIcon()
	}
	return theme.MediaPlayIcon()
}
