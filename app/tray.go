package app

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/buildstation/buildstation/assets"
)

// trayState remembers what the tray shows, so an unchanged state does not
// rebuild the OS menu or re-encode the icon.
type trayState struct {
	iconKey string
	menuSig string
	tooltip string
	menu    *fyne.Menu
}

// refreshTray redraws the tray icon and menu from the snapshot.
func (u *UI) refreshTray() {
	menu := u.TrayMenu()
	sig := menuSignature(menu)
	da, isDesktop := u.app.(desktop.App)
	isDesktop = isDesktop && !u.o.NoSystemTray
	if sig != u.tray.menuSig {
		u.tray.menuSig, u.tray.menu = sig, menu
		if isDesktop {
			da.SetSystemTrayMenu(menu)
		}
	}
	b := BadgeFor(u.snap)
	key := fmt.Sprintf("%s/%d", b.Level, b.Count)
	if key != u.tray.iconKey {
		u.tray.iconKey = key
		base, template := assets.Icon.Content(), false
		if u.o.Template {
			base, template = assets.IconTemplate.Content(), true
		}
		res, err := BadgeIcon(base, b, template)
		if err != nil {
			u.o.Log.Warn("draw tray icon", "err", err)
		} else if isDesktop {
			da.SetSystemTrayIcon(trayResource(res, template))
		}
	}
	if tip := TooltipFor(u.snap); tip != u.tray.tooltip && u.o.SetTooltip != nil {
		u.tray.tooltip = tip
		u.o.SetTooltip(tip)
	}
}

// TrayMenu is the tray's menu for the current snapshot: the counts, one
// item per live session, then the actions.
func (u *UI) TrayMenu() *fyne.Menu {
	var items []*fyne.MenuItem
	// The first line is the counts in words. It is a live item (it
	// opens the dashboard), not a disabled one: trays grey disabled
	// items out, and this is the line a person reads.
	if away := BoardAway(u.snap); away != "" {
		// The board's counts are the last known; say so first.
		items = append(items, fyne.NewMenuItem(away, u.ShowDashboard))
	}
	if u.snap.Connected {
		items = append(items, fyne.NewMenuItem(Count(u.snap).Header(), u.ShowDashboard))
	} else {
		items = append(items, fyne.NewMenuItem("No station running — reconnecting", u.ShowDashboard),
			fyne.NewMenuItem("Reconnect now", u.conn.Refresh))
	}
	if live := liveSessions(u.snap); len(live) > 0 {
		items = append(items, fyne.NewMenuItemSeparator())
		for _, si := range live {
			id := si.ID
			label := fmt.Sprintf("%s — %s (%s)", clip(taskTitle(u.snap, si.TaskID), 44), si.State, si.TaskID)
			items = append(items, fyne.NewMenuItem(label, func() { u.OpenConsole(id) }))
		}
	}
	items = append(items, fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Open Dashboard", u.ShowDashboard),
		fyne.NewMenuItem("Add Task…", func() { u.ShowDashboard(); u.showAddTask() }))
	if u.snap.Connected && len(u.snap.Projects) > 0 {
		if u.allPaused() {
			items = append(items, fyne.NewMenuItem("Resume queue (all projects)", func() { u.pauseAll(false) }))
		} else {
			items = append(items, fyne.NewMenuItem("Pause queue (all projects)", func() { u.pauseAll(true) }))
		}
	}
	items = append(items, fyne.NewMenuItem("Notification settings…", func() { u.ShowDashboard(); u.showSettings() }))
	quit := fyne.NewMenuItem("Quit tray (station keeps running)", u.Quit)
	quit.IsQuit = true
	items = append(items, fyne.NewMenuItemSeparator(), quit)
	return fyne.NewMenu("Build Station", items...)
}

// menuSignature is the menu's text, to tell a changed menu.
func menuSignature(m *fyne.Menu) string {
	var b strings.Builder
	for _, it := range m.Items {
		b.WriteString(it.Label)
		if it.Disabled {
			b.WriteString("(off)")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func (u *UI) allPaused() bool {
	for _, p := range u.snap.Projects {
		if !p.Paused {
			return false
		}
	}
	return len(u.snap.Projects) > 0
}

// pauseAll pauses or resumes every project's queue.
func (u *UI) pauseAll(pause bool) {
	projects := u.snap.Projects
	what := "resume the queue"
	if pause {
		what = "pause the queue"
	}
	u.act(nil, what, func(ctx context.Context, cl Client) error {
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
	})
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
