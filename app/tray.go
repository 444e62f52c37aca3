package app

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"

	"github.com/buildstation/buildstation/assets"
	"github.com/buildstation/buildstation/supervisor"
)

// The tray icon and its menu are drawn by the tray process (app/tray,
// fyne.io/systray alone, no Fyne app loop: Fyne's GLFW loop wakes 60 times
// a second even with no window open). This file is what it draws, worked
// out from a Snapshot with no Fyne window in sight, so the tray process and
// this package's preview window say the same thing.

// MenuAction is what a click on a tray menu line does.
type MenuAction int

const (
	ActDashboard    MenuAction = iota // show the dashboard
	ActReconnect                      // dial the station now
	ActConsole                        // open the console of session ID
	ActAddTask                        // the dashboard with the Add Task dialog
	ActPauseAll                       // pause every project's queue
	ActResumeAll                      // resume every project's queue
	ActSettings                       // the notification settings
	ActAllow                          // allow once what session ID asks
	ActDeny                           // deny what session ID asks
	ActQuit                           // quit the tray (the station keeps running)
	ActAddProject                     // the dashboard's Projects view, to add one
	ActOpenURL                        // open ID, a web link, in the browser
	ActStartStation                   // start the stopped station (the installed autostart, else a detached one)
)

// MenuLine is one line of the tray's menu.
type MenuLine struct {
	Label     string
	Action    MenuAction
	ID        string // ActConsole: the session
	Request   string // ActAllow, ActDeny: the id of the request the line shows
	Separator bool
	// Sub are the lines of the submenu this line opens (a live
	// session's: Console and, while it asks, Allow once and Deny).
	Sub []MenuLine
}

// TrayLines is the tray's menu for a snapshot: the counts, one line per
// live session, then the actions.
func TrayLines(s Snapshot) []MenuLine {
	var lines []MenuLine
	sep := MenuLine{Separator: true}
	// The first line is the counts in words. It is a live item (it
	// opens the dashboard), not a disabled one: trays grey disabled
	// items out, and this is the line a person reads.
	if away := BoardAway(s); away != "" {
		// The board's counts are the last known; say so first.
		lines = append(lines, MenuLine{Label: away, Action: ActDashboard})
	}
	if s.Connected && len(s.Projects) == 0 {
		// An empty station has nothing to count: the first thing to do.
		lines = append(lines, MenuLine{Label: FirstProjectLine, Action: ActAddProject})
	}
	for _, p := range SourceProblems(s) {
		lines = append(lines, MenuLine{Label: clip(p, 90), Action: ActDashboard})
	}
	if p := PhoneAway(s); p != "" {
		// Its settings are where a person fixes it.
		lines = append(lines, MenuLine{Label: clip(p, 90), Action: ActSettings})
	}
	if s.Connected {
		for _, w := range s.Warnings {
			lines = append(lines, MenuLine{Label: clip("Warning: "+w, 90), Action: ActDashboard})
		}
	}
	if s.Connected {
		lines = append(lines, MenuLine{Label: Count(s).Header(), Action: ActDashboard})
	} else {
		lines = append(lines, stationLines(s)...)
	}
	if s.Update.Version != "" {
		lines = append(lines, MenuLine{Label: "Update available: v" + s.Update.Version, Action: ActOpenURL, ID: s.Update.URL})
	}
	if live := liveSessions(s); len(live) > 0 {
		lines = append(lines, sep)
		for _, si := range live {
			// The title and the state in words: the task's id is the
			// card pane's, as on the board's card.
			label := fmt.Sprintf("%s — %s", clip(taskTitle(s, si.TaskID), 44), SessionWords(si.State))
			if w := si.WaitingOn; w != nil {
				label += " · asks: " + clipSaid(w.Line(), menuAsk)
			} else if d := Doing(si); d != "" {
				label += " · " + clip(d, 60)
			}
			// The session's line opens its submenu: its console and,
			// while it asks a permission, the decision. A menu line
			// cannot wrap: a request longer than it holds is decided
			// where it is shown whole (the console's card), never
			// allowed from a clipped line.
			sub := []MenuLine{{Label: "Console", Action: ActConsole, ID: si.ID}}
			if w := si.WaitingOn; w != nil && w.Kind == supervisor.AskPermission {
				if line := w.Line(); utf8.RuneCountInString(line) <= menuAsk {
					sub = append(sub, MenuLine{Label: "Allow once: " + line, Action: ActAllow, ID: si.ID, Request: w.ID},
						MenuLine{Label: "Deny", Action: ActDeny, ID: si.ID, Request: w.ID})
				} else {
					sub[0].Label = "Console (read the whole request to decide)"
				}
			}
			lines = append(lines, MenuLine{Label: label, Action: ActConsole, ID: si.ID, Sub: sub})
		}
	}
	lines = append(lines, sep,
		MenuLine{Label: "Open Dashboard", Action: ActDashboard},
		MenuLine{Label: "Add Task…", Action: ActAddTask})
	if s.Connected && len(s.Projects) > 0 {
		if allPaused(s) {
			lines = append(lines, MenuLine{Label: "Resume queue (all projects)", Action: ActResumeAll})
		} else {
			lines = append(lines, MenuLine{Label: "Pause queue (all projects)", Action: ActPauseAll})
		}
	}
	quit := "Quit tray"
	if s.Connected {
		quit += " (station keeps running)" // only true while there is one
	}
	lines = append(lines, MenuLine{Label: "Notification settings…", Action: ActSettings},
		sep, MenuLine{Label: quit, Action: ActQuit})
	return lines
}

// FirstProjectLine is what a station with no projects shows first, in the
// tray's menu and on the dashboard, instead of an empty board.
const FirstProjectLine = "Add your first project"

// MenuSignature is the menu's text, to tell a changed menu.
func MenuSignature(lines []MenuLine) string {
	var b strings.Builder
	for _, l := range lines {
		if l.Separator {
			b.WriteString("---")
		}
		b.WriteString(l.Label)
		b.WriteByte('\n')
		for _, c := range l.Sub {
			b.WriteString("\t" + c.Label + "\n")
		}
	}
	return b.String()
}

// TrayIcon is the tray icon for a snapshot, a PNG, and the key that tells
// a changed icon (level and count) without drawing it. With template it
// is the monochrome macOS menu-bar variant.
func TrayIcon(s Snapshot, template bool) (key string, draw func() ([]byte, error)) {
	b := BadgeFor(s)
	key = fmt.Sprintf("%s/%d", b.Level, b.Count)
	return key, func() ([]byte, error) {
		base := assets.Icon.Content()
		if template {
			base = assets.IconTemplate.Content()
		}
		res, err := BadgeIcon(base, b, template)
		if err != nil {
			return nil, err
		}
		return res.Content(), nil
	}
}

// TrayMenu is the tray's menu for the current snapshot as a Fyne menu,
// acting in this process: the preview window shows it.
func (u *UI) TrayMenu() *fyne.Menu {
	var items []*fyne.MenuItem
	for _, l := range TrayLines(u.snap) {
		if l.Separator {
			items = append(items, fyne.NewMenuItemSeparator())
			continue
		}
		it := fyne.NewMenuItem(l.Label, func() { u.Do(l) })
		it.IsQuit = l.Action == ActQuit
		if len(l.Sub) > 0 {
			var sub []*fyne.MenuItem
			for _, c := range l.Sub {
				sub = append(sub, fyne.NewMenuItem(c.Label, func() { u.Do(c) }))
			}
			it.ChildMenu = fyne.NewMenu("", sub...)
		}
		items = append(items, it)
	}
	return fyne.NewMenu("Build Station", items...)
}

// Do carries out a tray menu line in this process's windows.
func (u *UI) Do(l MenuLine) {
	switch l.Action {
	case ActDashboard:
		u.ShowDashboard()
	case ActReconnect:
		u.conn.Refresh()
	case ActConsole:
		u.OpenConsole(l.ID)
	case ActAddTask:
		u.ShowDashboard()
		u.showAddTask()
	case ActPauseAll, ActResumeAll:
		u.whenConnected(func() { u.pauseAll(l.Action == ActPauseAll) })
	case ActSettings:
		u.ShowDashboard()
		u.showSettings()
	case ActAllow, ActDeny:
		u.whenConnected(func() {
			u.act(nil, "decide "+l.ID, func(ctx context.Context, cl Client) error { return Decide(ctx, cl, l) })
		})
	case ActAddProject, ActStartStation:
		u.ShowDashboard()
		u.showAddProject()
	case ActOpenURL:
		if link, err := url.Parse(l.ID); err == nil {
			_ = u.app.OpenURL(link)
		}
	case ActQuit:
		u.Quit()
	}
}

func allPaused(s Snapshot) bool {
	for _, p := range s.Projects {
		if !p.Paused {
			return false
		}
	}
	return len(s.Projects) > 0
}

// pauseAll pauses or resumes every project's queue.
func (u *UI) pauseAll(pause bool) {
	projects := u.snap.Projects
	what := "resume the queue"
	if pause {
		what = "pause the queue"
	}
	u.act(nil, what, func(ctx context.Context, cl Client) error { return PauseAll(ctx, cl, projects, pause) })
}

// PauseAll pauses (or resumes) every project's queue that is not so
// already.
func PauseAll(ctx context.Context, cl Client, projects []supervisor.ProjectInfo, pause bool) error {
	for _, p := range projects {
		var err error
		switch {
		case pause && !p.Paused:
			err = cl.Pause(ctx, p.Name, "paused from the tray")
		case !pause && p.Paused:
			err = cl.Resume(ctx, p.Name)
		}
		if err != nil {
			return fmt.Errorf("project %s: %w", p.Name, err)
		}
	}
	return nil
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// clipSaid is s cut to n runes, saying it was cut: a request in the menu
// is read whole in the console's card, one click away.
func clipSaid(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return clip(s, n-len(" (clipped)")) + " (clipped)"
}

// menuAsk is the longest request the tray's menu offers to allow: a menu
// line shows it whole, or not at all.
const menuAsk = 60

// Decide carries out an Allow or Deny line of the tray menu, on the
// request the line showed.
func Decide(ctx context.Context, cl Client, l MenuLine) error {
	if l.Action == ActAllow {
		return cl.Allow(ctx, l.ID, l.Request, "")
	}
	return cl.Deny(ctx, l.ID, l.Request, "")
}
