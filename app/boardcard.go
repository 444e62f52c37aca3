package app

import (
	"context"
	"fmt"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/buildstation/buildstation/supervisor"
)

// action is one thing a card offers: its primary button, or an item of
// its "…" menu.
type action struct {
	label string
	icon  fyne.Resource
	do    func()
}

// card draws one task: its title, state, clock, what the agent does and
// costs, its branch and diff stat, the evidence behind a nudge or block,
// and one primary action with the rest in a menu.
func (d *dashboard) card(t supervisor.Task, now time.Time) fyne.CanvasObject {
	u := d.u
	var si *supervisor.SessionInfo
	if s, ok := SessionFor(u.snap, t.ID); ok {
		s = s.Projected()
		si = &s
	}
	c := CardFor(t, si, now)
	title := widget.NewLabelWithStyle(c.Title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.Wrapping = fyne.TextWrapWord
	// Wrapped, never cut: with the card pane open a column is ~150 px.
	meta := widget.NewLabel(c.Brief)
	meta.Wrapping = fyne.TextWrapWord
	parts := []fyne.CanvasObject{title, container.NewBorder(nil, nil, container.NewCenter(stateBadge(c.Badge, c.Level)), nil, meta)}
	if si != nil {
		tl := widget.NewLabel(c.Timing)
		tl.Wrapping = fyne.TextWrapWord
		d.timings = append(d.timings, timing{label: tl, si: *si})
		parts = append(parts, tl)
	}
	if c.Doing != "" {
		parts = append(parts, wrapped(c.Doing, widget.MediumImportance))
	}
	if c.Asks != nil && !strings.HasPrefix(c.Timing, "asks you: ") {
		parts = append(parts, wrapped("Asks: "+c.Asks.Line(), widget.WarningImportance))
	}
	if line := d.works[t.ID].brief(); line != "" {
		parts = append(parts, wrapped(line, widget.LowImportance))
	}
	if w := d.works[t.ID].work; w != nil && setupLine(w.Setup) != "" {
		// Its own line: the branch's line is cut to the column's width.
		parts = append(parts, wrapped(setupLine(w.Setup), widget.LowImportance))
	}
	if line, level := landedLine(t, d.works[t.ID].work); line != "" {
		parts = append(parts, wrapped(line, level))
	}
	if t.State == supervisor.TaskDone && t.Summary != "" {
		parts = append(parts, wrapped(t.Summary, widget.SuccessImportance))
	}
	if c.Upstream != "" {
		parts = append(parts, wrapped(c.Upstream, widget.MediumImportance))
	}
	parts = append(parts, evidenceView(evidenceFor(t, si), true)...)
	if c.Pinned != "" {
		parts = append(parts, wrapped(c.Pinned, widget.WarningImportance))
	}
	primary, more := d.actions(t, c)
	parts = append(parts, actionRow(d.win, primary, more))
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	bg.CornerRadius = 6
	bg.StrokeColor = LevelColor(c.Level)
	bg.StrokeWidth = 1
	if t.ID == d.focused {
		bg.StrokeWidth = 3
	}
	if t.ID == d.selected {
		bg.StrokeColor = theme.Color(theme.ColorNamePrimary)
		bg.StrokeWidth = 3
	}
	return container.NewPadded(container.NewStack(bg, container.NewPadded(container.NewVBox(parts...))))
}

// actionRow is a card's one primary button and its "…" menu of the rest.
func actionRow(win fyne.Window, primary *action, more []action) fyne.CanvasObject {
	objs := []fyne.CanvasObject{}
	if primary != nil {
		b := widget.NewButton(primary.label, primary.do)
		b.Importance = widget.HighImportance
		objs = append(objs, b)
	}
	if primary != nil && primary.label == "Allow once" {
		// A request is answered one way or the other: Deny… stands
		// beside Allow once, as on the notice, not in the menu.
		for i, a := range more {
			if a.label == "Deny…" {
				objs = append(objs, widget.NewButtonWithIcon(a.label, a.icon, a.do))
				more = append(more[:i:i], more[i+1:]...)
				break
			}
		}
	}
	objs = append(objs, layout.NewSpacer())
	if len(more) > 0 {
		var btn *widget.Button
		btn = widget.NewButtonWithIcon("", theme.MoreHorizontalIcon(), func() {
			items := make([]*fyne.MenuItem, 0, len(more))
			for _, a := range more {
				it := fyne.NewMenuItem(a.label, a.do)
				it.Icon = a.icon
				items = append(items, it)
			}
			widget.ShowPopUpMenuAtRelativePosition(fyne.NewMenu("", items...), win.Canvas(), fyne.NewPos(0, btn.Size().Height), btn)
		})
		btn.Importance = widget.LowImportance
		objs = append(objs, btn)
	}
	return container.NewHBox(objs...)
}

// actions are a card's primary action, the one its state calls for, and
// the rest for its menu. Nothing acts on a session that has ended: only a
// live session (c.Session) offers Console, Nudge now and Block.
func (d *dashboard) actions(t supervisor.Task, c Card) (primary *action, more []action) {
	u := d.u
	var all []action
	add := func(label string, icon fyne.Resource, fn func()) { all = append(all, action{label, icon, fn}) }
	w := d.works[t.ID].work
	if c.Asks != nil && c.Asks.Kind != supervisor.AskQuestion {
		id, req := c.Session, c.Asks.ID
		// The notice's words: what a person reads there, they find here.
		add("Allow once", theme.ConfirmIcon(), func() {
			u.act(d.win, "allow "+id, func(ctx context.Context, cl Client) error { return cl.Allow(ctx, id, req, "") })
		})
		add("Deny…", theme.ContentRemoveIcon(), func() { u.showDeny(d.win, id, req) })
	} else if c.Asks != nil {
		add("Answer…", theme.QuestionIcon(), func() { d.focus(t.ID) })
	}
	if c.Session != "" {
		id := c.Session
		add("Console", theme.ComputerIcon(), func() { d.openConsole(id) })
		if c.Asks == nil { // an agent that asks waits on a person, not a nudge
			add("Nudge now", theme.MailSendIcon(), func() {
				u.act(d.win, "nudge "+id, func(ctx context.Context, cl Client) error { return cl.Nudge(ctx, id) })
			})
		}
		add("Block…", theme.MediaStopIcon(), func() { u.showBlock(t, id) })
	}
	if t.State == supervisor.TaskBlocked {
		add("Requeue…", theme.MediaReplayIcon(), func() { u.showRequeue(t) })
	}
	if w != nil && (t.State == supervisor.TaskBlocked || t.State == supervisor.TaskReview) {
		add("Accept…", theme.ConfirmIcon(), func() { u.showAccept(t, w) })
	}
	if w != nil {
		add("View diff", theme.DocumentIcon(), func() { u.showDiff(t, w) })
		if t.State != supervisor.TaskWorking {
			if w.Merged == nil {
				add("Merge", theme.ContentPasteIcon(), func() { d.merge(t) })
			}
			if readyToMerge(t, w) && hasGitHubSource(u.snap, t.Project) {
				add("Open pull request", theme.UploadIcon(), func() { u.openPullRequest(d.win, t) })
			}
			add("Merge into…", theme.ContentPasteIcon(), func() { u.showMerge(t) })
		}
	}
	if c.Session != "" || (t.State != supervisor.TaskTodo && t.Attempt > 0) || t.Attempt > 1 {
		add("Last screen", theme.VisibilityIcon(), func() { d.focus(t.ID) })
	}
	if !t.State.Final() {
		add("Cancel…", theme.CancelIcon(), func() { u.confirmCancel(t) })
	}
	want := primaryAction(t, c, w)
	for i := range all {
		if all[i].label == want && primary == nil {
			primary = &all[i]
			continue
		}
		more = append(more, all[i])
	}
	return primary, more
}

// primaryAction names the one action a card's state calls for: answer
// what the agent asks, watch a running session, requeue a blocked task,
// read the diff of finished work; "" for none (a queued task).
func primaryAction(t supervisor.Task, c Card, w *supervisor.TaskWork) string {
	switch {
	case c.Asks != nil && c.Asks.Kind == supervisor.AskQuestion:
		return "Answer…"
	case c.Asks != nil:
		return "Allow once"
	case c.Session != "":
		return "Console"
	case t.State == supervisor.TaskBlocked:
		return "Requeue…"
	case readyToMerge(t, w):
		return "Merge"
	case w != nil && (t.State == supervisor.TaskDone || t.State == supervisor.TaskReview):
		return "View diff"
	case t.State == supervisor.TaskDone || t.State == supervisor.TaskCancelled:
		return "Last screen"
	}
	return ""
}

// readyToMerge: a done task whose commits are not merged yet.
func readyToMerge(t supervisor.Task, w *supervisor.TaskWork) bool {
	return t.State == supervisor.TaskDone && w != nil && w.Merged == nil && len(w.Commits) > 0
}

// hasGitHubSource: project has a GitHub source ([[sources]] kind =
// "github"), as status last said, so its done work can go out as a pull
// request (buildstation task pr).
func hasGitHubSource(s Snapshot, project string) bool {
	for _, src := range s.Sources {
		if src.Kind == supervisor.KindGitHub && src.Project == project {
			return true
		}
	}
	return false
}

// githubProjects are the projects with a GitHub source, as status last
// said, in its order.
func githubProjects(s Snapshot) []string {
	var out []string
	for _, src := range s.Sources {
		if src.Kind == supervisor.KindGitHub {
			out = append(out, src.Project)
		}
	}
	return out
}

// openPullRequest opens a done task's pull request in the background, as
// `buildstation task pr` does, and says where it is, with a button to
// open it in the browser; the station's sentence when it refuses.
func (u *UI) openPullRequest(parent fyne.Window, t supervisor.Task) {
	u.act(parent, "open the pull request of "+t.ID, func(ctx context.Context, cl Client) error {
		addr, err := cl.PullRequest(ctx, t.ID)
		if err == nil {
			fyne.Do(func() { u.showPullRequest(parent, t.ID, addr) })
		}
		return err
	})
}

// showPullRequest is the short dialog an opened pull request gets:
// "Pull request opened: URL", and Open in browser.
func (u *UI) showPullRequest(parent fyne.Window, id, addr string) {
	if parent == nil {
		parent = u.dashboardWindow()
	}
	msg := widget.NewLabel("Pull request opened: " + addr)
	msg.Wrapping = fyne.TextWrapWord
	var dlg dialog.Dialog
	open := widget.NewButtonWithIcon("Open in browser", theme.ComputerIcon(), func() {
		if ref, err := url.Parse(addr); err == nil {
			if err := u.app.OpenURL(ref); err != nil {
				u.showError(parent, fmt.Errorf("open %s: %w", addr, err))
			}
		}
		dlg.Hide()
	})
	open.Importance = widget.HighImportance
	dlg = dialog.NewCustom("Pull request of "+id, "Close", container.NewVBox(msg, open), parent)
	dlg.Resize(fyne.NewSize(520, dlg.MinSize().Height))
	dlg.Show()
}

// landedLine is what a card says of finished work and landing it: "Ready
// to merge into main", "Merged into main at 14:02"; "" otherwise.
func landedLine(t supervisor.Task, w *supervisor.TaskWork) (string, widget.Importance) {
	switch {
	case w != nil && w.Merged != nil:
		return fmt.Sprintf("Merged into %s at %s", w.Merged.Into, w.Merged.At.Local().Format("15:04")), widget.SuccessImportance
	case readyToMerge(t, w) && w.MergeInto != "":
		return "Ready to merge into " + w.MergeInto, widget.WarningImportance
	case readyToMerge(t, w):
		return "Ready to merge", widget.WarningImportance
	}
	return "", widget.MediumImportance
}

// merge takes a task's work into its project's branch, one click: the
// card reads its work again when it is done, to say it was merged.
func (d *dashboard) merge(t supervisor.Task) {
	u := d.u
	u.act(d.win, "merge "+t.ID, func(ctx context.Context, cl Client) error {
		_, err := cl.Merge(ctx, t.ID, "")
		if err == nil {
			fyne.Do(func() { u.workChanged(t.ID) })
		}
		return err
	})
}

// openConsole opens a live session's console: on macOS a tmux session
// opens in Terminal.app (OpenTerminal), elsewhere the tray's own window.
func (d *dashboard) openConsole(id string) {
	u := d.u
	if u.o.OpenTerminal != nil {
		go func() {
			if !u.o.OpenTerminal(id) {
				fyne.Do(func() { u.OpenConsole(id) })
			}
		}()
		return
	}
	u.OpenConsole(id)
}

// workEntry is a task's branch as last read, and what it was read for:
// the task's update time and its session's last commit, so a new commit
// or a new state reads it again.
type workEntry struct {
	key  string
	work *supervisor.TaskWork
	cost float64
}

// line is the detail view's line for the work: "bs/t3 · 2 commits · 3
// files changed, 40 insertions(+) · setup 42s · $1.20".
func (e workEntry) line() string { return e.lineOf(true) }

// brief is the board card's line for the work: its commits, diff stat and
// cost, without the branch (the detail view's) or the setup (a line of
// its own on the card).
func (e workEntry) brief() string { return e.lineOf(false) }

func (e workEntry) lineOf(detail bool) string {
	w := e.work
	if w == nil {
		return ""
	}
	parts := []string{commitCount(len(w.Commits))}
	if detail {
		parts = append([]string{w.Branch}, parts...)
	}
	if w.DiffStat != "" {
		parts = append(parts, strings.TrimSpace(w.DiffStat))
	}
	if l := setupLine(w.Setup); l != "" && detail {
		parts = append(parts, l)
	}
	if e.cost > 0 {
		parts = append(parts, fmt.Sprintf("$%.2f", e.cost))
	}
	return strings.Join(parts, " · ")
}

// setupLine says how long the worktree's setup took before the agent
// could start: "setup 42 s", "setup failed after 3 s"; "" when it had none.
func setupLine(r *supervisor.SetupRun) string {
	if r == nil || r.Command == "" {
		return ""
	}
	switch {
	case r.TimedOut:
		return "setup timed out after " + Short(r.Took)
	case !r.OK:
		return "setup failed after " + Short(r.Took)
	}
	return "setup " + Short(r.Took)
}

// commitCount is "no commits", "1 commit", "3 commits".
func commitCount(n int) string {
	switch n {
	case 0:
		return "no commits"
	case 1:
		return "1 commit"
	}
	return fmt.Sprintf("%d commits", n)
}

// workKey is what a task's work was read for: its update time, its
// events (a merge changes no field of the task), its session's commits.
func workKey(t supervisor.Task, s Snapshot) string {
	key := t.UpdatedAt.String() + " " + strconv.FormatUint(s.TaskEvents[t.ID], 10)
	if si, ok := SessionFor(s, t.ID); ok {
		key += " " + si.Evidence["commits"].String()
	}
	return key
}

// workChanged reads task id's work again now (on Fyne's goroutine): a
// merge changes no field of the task that the board's events carry, so
// its card would keep saying "Ready to merge" until the task moved again.
func (u *UI) workChanged(id string) {
	if u.dash == nil {
		return
	}
	delete(u.dash.works, id)
	u.dash.readWorks(u.snap)
}

// readWorks reads the branch of every task the board shows that has
// started, once per change (workKey), in one goroutine off Fyne's; the
// board redraws once with all that changed.
func (d *dashboard) readWorks(s Snapshot) {
	cl := d.u.conn.Client()
	if cl == nil || !s.Connected {
		return
	}
	want := map[string]workEntry{} // by task id: the entry as it stands, under its new key
	for _, t := range s.Tasks {
		if t.State == supervisor.TaskTodo || t.State == supervisor.TaskCancelled {
			continue
		}
		key := workKey(t, s)
		e, ok := d.works[t.ID]
		if ok && e.key == key {
			continue
		}
		e.key = key
		d.works[t.ID] = e // read once
		want[t.ID] = e
	}
	if len(want) == 0 {
		return
	}
	d.reading.Add(1)
	d.u.bg.Go(func() {
		defer d.reading.Done()
		read := map[string]workEntry{}
		for id, old := range want {
			ctx, cancel := context.WithTimeout(d.u.ctx, 20*time.Second)
			td, err := cl.Task(ctx, id)
			cancel()
			// An error leaves the card without a branch until the next
			// change; an answer that says what the card shows changes
			// nothing.
			if e := (workEntry{key: old.key, work: td.Work, cost: td.CostUSD}); err == nil && !reflect.DeepEqual(e, old) {
				read[id] = e
			}
		}
		if len(read) == 0 {
			return
		}
		fyne.Do(func() {
			for id, e := range read {
				if d.works[id].key == e.key { // not read again since
					d.works[id] = e
				}
			}
			d.update()
		})
	})
}
