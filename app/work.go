package app

import (
	"context"
	"fmt"
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

// diffShown is how many lines of a diff the window shows; the rest is
// one command away (task diff), which the window names.
const diffShown = 4000

// showDiff opens a window with the task's committed work as a diff, in
// monospace, added lines green and removed ones red.
func (u *UI) showDiff(t supervisor.Task, w *supervisor.TaskWork) {
	win := u.app.NewWindow(fmt.Sprintf("Diff %s — %s", t.ID, t.Title))
	win.SetIcon(u.icon)
	head := widget.NewLabel(workHead(w))
	head.Wrapping = fyne.TextWrapWord
	// Where the work landed, as the card says it: "Merged into main at
	// 14:02", "Ready to merge into main".
	text, level := landedLine(t, w)
	landed := widget.NewLabel(text)
	landed.Importance = level
	if text == "" {
		landed.Hide()
	}
	body := widget.NewRichText(&widget.TextSegment{Text: "reading the diff…", Style: widget.RichTextStyleInline})
	win.SetContent(container.NewBorder(container.NewVBox(landed, head), u.diffActions(win, t, w, landed), nil, nil, container.NewScroll(body)))
	// Within a 1280×800 screen: the diff scrolls inside.
	win.Resize(fyne.NewSize(diffWidth, diffHeight))
	win.Show()
	cl := u.conn.Client()
	if cl == nil {
		body.Segments = []widget.RichTextSegment{&widget.TextSegment{Text: errNoStation.Error()}}
		body.Refresh()
		return
	}
	u.acts.Add(1)
	u.bg.Go(func() {
		defer u.acts.Done()
		ctx, cancel := context.WithTimeout(u.ctx, 30*time.Second)
		defer cancel()
		diff, err := cl.TaskDiff(ctx, t.ID, false)
		fyne.Do(func() {
			if err != nil {
				body.Segments = []widget.RichTextSegment{&widget.TextSegment{Text: "no diff to show: " + err.Error()}}
			} else {
				body.Segments = diffSegments(diff, t.ID)
			}
			body.Refresh()
		})
	})
}

// ShowTaskDiff opens task id's diff window, its work read from the
// station first: a finished notice's View diff, for which the tray hands
// over only the task's id. Before the first snapshot it waits for the
// station, as the dialogs do.
func (u *UI) ShowTaskDiff(id string) {
	u.whenConnected(func() {
		cl := u.conn.Client()
		if cl == nil {
			u.showError(u.dashboardWindow(), fmt.Errorf("view the diff of %s: %w", id, errNoStation))
			return
		}
		u.acts.Add(1)
		u.bg.Go(func() {
			defer u.acts.Done()
			ctx, cancel := context.WithTimeout(u.ctx, 30*time.Second)
			td, err := cl.Task(ctx, id)
			cancel()
			fyne.Do(func() {
				switch {
				case err != nil:
					u.showError(u.dashboardWindow(), fmt.Errorf("view the diff of %s: %w", id, err))
				case td.Work == nil:
					u.showError(u.dashboardWindow(), fmt.Errorf("task %s has no branch to show", id))
				default:
					u.showDiff(td.Task, td.Work)
				}
			})
		})
	})
}

// MergeTask merges task id's work into its project's branch (a finished
// notice's Merge, from the tray) and says what happened as a notice to
// show: "Merged: TITLE", where the work went.
func MergeTask(ctx context.Context, cl Client, id string) (supervisor.Notice, error) {
	m, err := cl.Merge(ctx, id, "")
	if err != nil {
		return supervisor.Notice{}, err
	}
	title := id
	if td, err := cl.Task(ctx, id); err == nil && td.Task.Title != "" {
		title = td.Task.Title
	}
	return supervisor.Notice{Kind: supervisor.NoticeFinished, TaskID: id, Title: "Merged: " + title,
		Body: id + " merged: " + mergedLine(m)}, nil
}

// The diff window's size: inside the smallest screen the dashboard is
// made for (1280×800), with room for a panel and the window's title.
const diffWidth, diffHeight = 980, 680

// diffActions are the diff window's way to land the work: Accept… for a
// blocked task or one in review, Merge for finished work not merged yet.
// landed, the window's landing line, says merged once Merge went through.
func (u *UI) diffActions(win fyne.Window, t supervisor.Task, w *supervisor.TaskWork, landed *widget.Label) fyne.CanvasObject {
	row := container.NewHBox(layout.NewSpacer())
	if w == nil || t.State == supervisor.TaskWorking {
		return row
	}
	if t.State == supervisor.TaskBlocked || t.State == supervisor.TaskReview {
		row.Add(widget.NewButtonWithIcon("Accept…", theme.ConfirmIcon(), func() { u.showAccept(t, w) }))
	}
	var pr *widget.Button
	if readyToMerge(t, w) && hasGitHubSource(u.snap, t.Project) {
		pr = widget.NewButtonWithIcon("Open pull request", theme.UploadIcon(), func() { u.openPullRequest(win, t) })
	}
	if w.Merged == nil {
		merge := widget.NewButtonWithIcon("Merge", theme.ContentPasteIcon(), nil)
		merge.OnTapped = func() {
			merge.Disable()
			u.act(win, "merge "+t.ID, func(ctx context.Context, cl Client) error {
				m, err := cl.Merge(ctx, t.ID, "")
				fyne.Do(func() {
					if err != nil {
						merge.Enable()
						return
					}
					merge.Hide()
					if pr != nil {
						pr.Hide() // merged work needs no pull request
					}
					landed.Importance = widget.SuccessImportance
					landed.SetText(fmt.Sprintf("Merged into %s at %s", m.Into, u.o.Now().Local().Format("15:04")))
					landed.Show()
					dialog.ShowInformation("Merged "+t.ID, mergedLine(m), win)
					u.workChanged(t.ID)
				})
				return err
			})
		}
		merge.Importance = widget.HighImportance
		row.Add(merge)
	}
	if pr != nil {
		row.Add(pr)
	}
	return row
}

// workHead is the diff window's header: branch, commits, stat, gate.
func workHead(w *supervisor.TaskWork) string {
	if w == nil {
		return ""
	}
	s := fmt.Sprintf("%s · %s..%s · %s", w.Branch, supervisor.ShortSHA(w.Base), supervisor.ShortSHA(w.Head), commitCount(len(w.Commits)))
	if w.DiffStat != "" {
		s += " · " + strings.TrimSpace(w.DiffStat)
	}
	if g := gateLine(w); g != "" {
		s += " · " + g
	}
	return s
}

// gateLine says the gate's verdict on the work's head: "gate passes on
// 1a2b3c4 (checked 14:02)"; "" when none is known.
func gateLine(w *supervisor.TaskWork) string {
	if w == nil || w.Gate == nil {
		return ""
	}
	verdict := "passes"
	if !w.Gate.Passed {
		verdict = "FAILS"
	}
	s := fmt.Sprintf("gate %s on %s", verdict, supervisor.ShortSHA(w.Gate.Commit))
	if !w.Gate.CheckedAt.IsZero() {
		s += " (checked " + w.Gate.CheckedAt.Local().Format("15:04") + ")"
	}
	return s
}

// diffSegments is a diff as rich text, a monospace line each, coloured by
// what the line does.
func diffSegments(diff, taskID string) []widget.RichTextSegment {
	if strings.TrimSpace(diff) == "" {
		return []widget.RichTextSegment{&widget.TextSegment{Text: "the branch changes nothing"}}
	}
	lines := strings.Split(strings.TrimRight(diff, "\n"), "\n")
	cut := len(lines) > diffShown
	if cut {
		lines = lines[:diffShown]
	}
	out := make([]widget.RichTextSegment, 0, len(lines)+1)
	for _, l := range lines {
		st := widget.RichTextStyleCodeBlock
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"), strings.HasPrefix(l, "diff "):
			st.ColorName = theme.ColorNameWarning // no bold monospace face in every theme
		case strings.HasPrefix(l, "+"):
			st.ColorName = theme.ColorNameSuccess
		case strings.HasPrefix(l, "-"):
			st.ColorName = theme.ColorNameError
		case strings.HasPrefix(l, "@@"):
			st.ColorName = theme.ColorNamePrimary
		}
		if l == "" {
			l = " "
		}
		out = append(out, &widget.TextSegment{Text: l, Style: st})
	}
	if cut {
		out = append(out, &widget.TextSegment{Text: fmt.Sprintf("… the first %d lines; the rest: buildstation task diff %s", diffShown, taskID), Style: widget.RichTextStyleEmphasis})
	}
	return out
}

// showAccept asks for an optional note and marks a blocked or reviewed
// task done: a person's decision, recorded as such in its history.
func (u *UI) showAccept(t supervisor.Task, w *supervisor.TaskWork) {
	if w != nil && len(w.Commits) == 0 {
		// Accepting lands nothing: a person should know before.
		d := dialog.NewConfirm("Accept "+t.ID+" with no commits?",
			fmt.Sprintf("%s has no commits: accepting marks it done with nothing to merge.", t.ID),
			func(ok bool) {
				if ok {
					u.askAccept(t, w)
				}
			}, u.dashboardWindow())
		d.SetConfirmText("Accept anyway")
		d.Show()
		return
	}
	u.askAccept(t, w)
}

func (u *UI) askAccept(t supervisor.Task, w *supervisor.TaskWork) {
	items := []*widget.FormItem{widget.NewFormItem("Task", wrapped(t.Title, widget.MediumImportance))}
	if w != nil {
		items = append(items, widget.NewFormItem("Work", wrapped(workHead(w), widget.MediumImportance)))
	}
	u.askNote("Accept "+t.ID+" as done", "Accept", "Why it is done (optional; kept in the task's history)", 2, items, func(ctx context.Context, cl Client, note string) error {
		_, err := cl.Accept(ctx, t.ID, note)
		return err
	})
}

// showMerge asks which branch takes the task's work (empty: the
// project's own) and merges it; a conflict changes nothing and its error
// names the files.
func (u *UI) showMerge(t supervisor.Task) {
	parent := u.dashboardWindow()
	into := widget.NewEntry()
	into.SetPlaceHolder("the project's current branch")
	d := dialog.NewForm("Merge "+t.ID, "Merge", "Cancel",
		[]*widget.FormItem{widget.NewFormItem("Into branch", into)}, func(ok bool) {
			if !ok {
				return
			}
			branch := strings.TrimSpace(into.Text)
			u.act(parent, "merge "+t.ID, func(ctx context.Context, cl Client) error {
				m, err := cl.Merge(ctx, t.ID, branch)
				if err == nil {
					fyne.Do(func() {
						dialog.ShowInformation("Merged "+t.ID, mergedLine(m), parent)
						u.workChanged(t.ID)
					})
				}
				return err
			})
		}, parent)
	d.Resize(fyne.NewSize(480, 200))
	d.Show()
	parent.Canvas().Focus(into)
}

// mergedLine says what a merge did.
func mergedLine(m supervisor.Merged) string {
	switch {
	case m.Already:
		return fmt.Sprintf("%s already held the work; nothing changed.", m.Into)
	case m.FastForward:
		return fmt.Sprintf("%s fast-forwarded to %s.", m.Into, supervisor.ShortSHA(m.Commit))
	}
	return fmt.Sprintf("%s took the work in merge commit %s.", m.Into, supervisor.ShortSHA(m.Commit))
}
