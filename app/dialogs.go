package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/buildstation/buildstation/supervisor"
)

// showAddTask asks for a project, a title and a body and adds the task,
// once the station said which projects it has; with none, it opens Add
// project… instead.
func (u *UI) showAddTask() { u.whenConnected(u.showAddTaskNow) }

func (u *UI) showAddTaskNow() {
	parent := u.dashboardWindow()
	var names []string
	for _, p := range u.snap.Projects {
		names = append(names, p.Name)
	}
	if len(names) == 0 {
		u.showAddProjectNow()
		return
	}
	project := widget.NewSelect(names, nil)
	project.SetSelected(names[0])
	title := widget.NewEntry()
	title.SetPlaceHolder("What should the agent do?")
	title.Validator = func(s string) error {
		if strings.TrimSpace(s) == "" {
			return errors.New("a task needs a title")
		}
		return nil
	}
	body := widget.NewMultiLineEntry()
	body.SetPlaceHolder("Details, acceptance criteria, files to look at (optional)")
	body.SetMinRowsVisible(6)
	body.Wrapping = fyne.TextWrapWord
	items := []*widget.FormItem{
		widget.NewFormItem("Project", project),
		widget.NewFormItem("Title", title),
		widget.NewFormItem("Body", body),
	}
	d := dialog.NewForm("Add Task", "Add", "Cancel", items, func(ok bool) {
		if !ok {
			return
		}
		nt := supervisor.NewTask{Project: project.Selected, Title: strings.TrimSpace(title.Text), Body: body.Text}
		u.act(parent, "add the task", func(ctx context.Context, cl Client) error {
			_, err := cl.AddTask(ctx, nt)
			return err
		})
	}, parent)
	d.Resize(fyne.NewSize(560, 380))
	d.Show()
	parent.Canvas().Focus(title)
}

// showRequeue asks for an optional note and requeues a blocked task.
func (u *UI) showRequeue(t supervisor.Task) {
	items := []*widget.FormItem{widget.NewFormItem("Task", wrapped(t.Title, widget.MediumImportance))}
	if t.Reason != "" {
		items = append(items, widget.NewFormItem("Blocked", wrapped(t.Reason, widget.DangerImportance)))
	}
	u.askNote(fmt.Sprintf("Requeue %s", t.ID), "Requeue", "A note for the next session (optional)", 3, items, func(ctx context.Context, cl Client, note string) error {
		_, err := cl.Requeue(ctx, t.ID, note)
		return err
	})
}

// askNote is a dialog over the dashboard with items and an optional note
// of rows lines; confirm sends the note (trimmed) to do, as u.act does.
func (u *UI) askNote(title, confirm, placeholder string, rows int, items []*widget.FormItem, do func(ctx context.Context, cl Client, note string) error) {
	parent := u.dashboardWindow()
	note := widget.NewMultiLineEntry()
	note.SetPlaceHolder(placeholder)
	note.SetMinRowsVisible(rows)
	note.Wrapping = fyne.TextWrapWord
	items = append(items, widget.NewFormItem("Note", note))
	d := dialog.NewForm(title, confirm, "Cancel", items, func(ok bool) {
		if !ok {
			return
		}
		text := strings.TrimSpace(note.Text)
		u.act(parent, strings.ToLower(title), func(ctx context.Context, cl Client) error { return do(ctx, cl, text) })
	}, parent)
	// Shift+Enter sends it from the keyboard, as the board's r opened it.
	note.OnSubmitted = func(string) { d.Submit() }
	d.Resize(fyne.NewSize(540, 240+float32(rows)*30))
	d.Show()
	parent.Canvas().Focus(note)
}

// showBlock asks for a reason and blocks the session's task.
func (u *UI) showBlock(t supervisor.Task, sessionID string) {
	parent := u.dashboardWindow()
	reason := widget.NewEntry()
	reason.SetPlaceHolder("blocked by a person")
	d := dialog.NewForm(fmt.Sprintf("Block %s", t.ID), "Block", "Cancel",
		[]*widget.FormItem{widget.NewFormItem("Reason", reason)}, func(ok bool) {
			if !ok {
				return
			}
			text := strings.TrimSpace(reason.Text)
			u.act(parent, "block "+t.ID, func(ctx context.Context, cl Client) error {
				return cl.Block(ctx, sessionID, text)
			})
		}, parent)
	d.Resize(fyne.NewSize(480, 200))
	d.Show()
	parent.Canvas().Focus(reason)
}

// showDeny denies the request a session waits on (request, the one the
// person read), with a note the agent reads as the tool's result; the
// note may stay empty. parent nil is the dashboard.
func (u *UI) showDeny(parent fyne.Window, sessionID, request string) {
	if parent == nil {
		parent = u.dashboardWindow()
	}
	note := widget.NewEntry()
	note.SetPlaceHolder("optional: what the agent should do instead")
	d := dialog.NewForm("Deny what "+sessionID+" asks", "Deny", "Cancel",
		[]*widget.FormItem{widget.NewFormItem("Note", note)}, func(ok bool) {
			if !ok {
				return
			}
			text := strings.TrimSpace(note.Text)
			u.act(parent, "deny "+sessionID, func(ctx context.Context, cl Client) error {
				return cl.Deny(ctx, sessionID, request, text)
			})
		}, parent)
	d.Resize(fyne.NewSize(480, 200))
	d.Show()
	parent.Canvas().Focus(note)
}

// confirmCancel takes a task off the board after a yes.
func (u *UI) confirmCancel(t supervisor.Task) {
	parent := u.dashboardWindow()
	dialog.ShowConfirm("Cancel "+t.ID, fmt.Sprintf("Take %q off the board? A running session is ended.", clip(t.Title, 60)), func(ok bool) {
		if !ok {
			return
		}
		u.act(parent, "cancel "+t.ID, func(ctx context.Context, cl Client) error {
			_, err := cl.Cancel(ctx, t.ID)
			return err
		})
	}, parent)
}
