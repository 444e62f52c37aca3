//go:build linux && cgo

package tray_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

// A live session's line in the tray's menu opens a submenu (the host reads
// children-display "submenu" and the lines under it): Console and, while
// the session asks a permission, Allow once and Deny. A click on its Allow
// once, sent as a tray host sends it, answers the agent's hook: the
// command is allowed, the task lands, and its history says a person
// allowed it.
func TestSessionSubmenuAllowsFromTheTray(t *testing.T) {
	display := startXvfb(t)
	bus := privateBus(t)
	w := newWatcher(t, bus)
	script := filepath.Join(t.TempDir(), "agent.sh")
	writeExec(t, script, `#!/bin/sh
answer=$(printf '{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"make release"}}' | buildstation agent hook)
case "$answer" in
*'"behavior":"allow"'*) buildstation agent complete --summary "released" ;;
*) buildstation agent block --reason "not allowed: $answer" ;;
esac
`)
	home := rig.WriteConfig(t, fmt.Sprintf("\n[[projects]]\nname = \"web\"\npath = %q\ncommand = [\"sh\", %q]\n", t.TempDir(), script))
	s := rig.StartOn(t, home)
	out := startTray(t, home, display, bus, "--hidden")
	it := w.waitItem(t, 60*time.Second, out)
	id := s.AddTask("web", "Publish the release", "")

	var line entry
	rig.Eventually(t, 60*time.Second, func() error {
		tree := w.menuTree(t, it)
		for _, e := range tree {
			// The first read after the menu changed has one level
			// (fyne.io/systray answers so, then says the layout changed,
			// for libdbusmenu's sake): a host reads it again.
			if strings.HasPrefix(e.Label, "Publish the release") && strings.Contains(e.Label, "asks") && len(e.Children) > 0 {
				line = e
				return nil
			}
		}
		return fmt.Errorf("menu %+v", tree)
	}, "the asking session's line in the tray's menu")
	var labels []string
	for _, c := range line.Children {
		labels = append(labels, c.Label)
	}
	want := []string{"Console", "Allow once: Bash: make release", "Deny"}
	if !line.Submenu || !slices.Equal(labels, want) {
		t.Fatalf("the session's line %q opens a submenu %v of %q, want a submenu of %q", line.Label, line.Submenu, labels, want)
	}
	w.clickID(t, it, line.Children[1].ID)
	if got := s.WaitState(id, "done", 60*time.Second); got.Summary != "released" {
		t.Errorf("task %+v", got)
	}
	if h := s.Must("task", "show", id, "--json"); !strings.Contains(h, "allowed once Bash: make release") {
		t.Errorf("the history does not say a person allowed it from the tray:\n%s", h)
	}
}
