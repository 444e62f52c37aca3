//go:build linux && cgo

package tray_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

// The tray's Console for a session, with no dashboard open: the click
// starts the dashboard process, which opens the console before it has
// heard from the station; the console attaches once the station answers,
// and what the person types there reaches the agent (here it asks a name
// on its terminal and completes with it). The tray runs --hidden, as
// autostart starts it, so no dashboard process runs before the click.
// (Here the new process's connection usually wins the race against the
// click it was started for, so this walk passed before the console
// waited for the station too; app's TestConsoleFromAColdStartAttaches
// holds the console to attach when it loses it.)
func TestConsoleFromTheTrayWithNoDashboardOpen(t *testing.T) {
	need(t, "xdotool", "xdotool")
	display := startXvfb(t)
	bus := privateBus(t)
	w := newWatcher(t, bus)
	script := filepath.Join(t.TempDir(), "agent.sh")
	writeExec(t, script, `#!/bin/sh
printf 'Who is this for? '
read name
buildstation agent complete --summary "greeted $name"
`)
	home := rig.WriteConfig(t, fmt.Sprintf("\n[[projects]]\nname = \"web\"\npath = %q\ncommand = [\"sh\", %q]\n", t.TempDir(), script))
	s := rig.StartOn(t, home)
	out := startTray(t, home, display, bus, "--hidden")
	it := w.waitItem(t, 60*time.Second, out)
	id := s.AddTask("web", "Greet someone", "")

	var console entry
	rig.Eventually(t, 60*time.Second, func() error {
		tree := w.menuTree(t, it)
		for _, e := range tree {
			if strings.HasPrefix(e.Label, "Greet someone") && len(e.Children) > 0 && e.Children[0].Label == "Console" {
				console = e.Children[0]
				return nil
			}
		}
		return fmt.Errorf("menu %+v", tree)
	}, "the session's line in the tray's menu, with Console")
	if windowTitled(t, display, "Build Station") {
		t.Fatal("a dashboard window shows before the click: the test wants none running")
	}
	w.clickID(t, it, console.ID)
	xdo := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("xdotool", args...)
		cmd.Env = append(os.Environ(), "DISPLAY="+display)
		b, err := cmd.Output()
		if err != nil {
			t.Fatalf("xdotool %v: %v", args, err)
		}
		return strings.TrimSpace(string(b))
	}
	// The window is titled with the task once the dashboard process has
	// the station's first snapshot, which is when the console attaches;
	// keys typed before it is attached are dropped (nobody types blind
	// into an agent's prompt), so the person waits for its screen.
	var win string
	rig.Eventually(t, 90*time.Second, func() bool {
		cmd := exec.Command("xdotool", "search", "--onlyvisible", "--name", "^Console .* — Greet someone$")
		cmd.Env = append(os.Environ(), "DISPLAY="+display)
		b, _ := cmd.Output()
		if f := strings.Fields(string(b)); len(f) > 0 {
			win = f[0]
		}
		return win != ""
	}, "the console window", rig.Later(func() string { return readLog(home) }))
	time.Sleep(2 * time.Second) // the attach and the replay of the agent's prompt
	xdo("windowfocus", "--sync", win)
	xdo("type", "--delay", "50", "Ann")
	xdo("key", "Return")
	if got := s.WaitState(id, "done", 60*time.Second); got.Summary != "greeted Ann" {
		t.Errorf("the task is %+v; want it done, greeted Ann (the keys typed in the console reached the agent)", got)
	}
}
