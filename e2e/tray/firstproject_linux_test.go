//go:build linux && cgo

package tray_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

// A new user's first project, with no terminal: on an empty station the
// tray's first line is "Add your first project"; a click opens the
// dashboard with the Add project dialog, which offers the agent CLIs found
// on the machine (a stand-in claude, with its version). Driven with the
// keyboard as a person would — the folder typed, the agent switched to a
// custom command, a gate typed, Add pressed — the station writes
// config.toml, and the first task given to the project lands on a green
// gate. SCREENSHOTS=DIR keeps a
// screenshot of the filled dialog (scripts/screenshots.sh sets it).
func TestAddProjectFromTheTrayMenu(t *testing.T) {
	need(t, "xdotool", "xdotool")
	need(t, "xwininfo", "x11-utils")
	display := startXvfb(t)
	bus := privateBus(t)
	w := newWatcher(t, bus)
	home := filepath.Join(t.TempDir(), "home")
	userHome, tools := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(tools, "claude"), []byte("#!/bin/sh\necho '2.1.328 (Claude Code)'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	web := rig.GitRepo(t)
	more := []string{"HOME=" + userHome, "PATH=" + filepath.Dir(rig.Bin()) + ":" + tools + ":/usr/bin:/bin"}
	s := rig.StartOn(t, home, more...)
	out := &rig.Buffer{}
	tray := exec.Command(rig.Bin(), "--home", home, "--hidden")
	tray.Env = append(rig.Env(rig.Bin(), home, more...), "DISPLAY="+display, "DBUS_SESSION_BUS_ADDRESS="+bus, "WAYLAND_DISPLAY=")
	tray.Stdout, tray.Stderr = out, out
	tray.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := tray.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-tray.Process.Pid, syscall.SIGTERM); _ = tray.Wait() })

	it := w.waitItem(t, 60*time.Second, out)
	w.waitView(t, it, 60*time.Second, "the first line", func(v view) bool {
		return len(v.Menu) > 0 && v.Menu[0] == "Add your first project"
	})
	w.click(t, it, "Add your first project")
	rig.Eventually(t, 90*time.Second, func() bool { return strings.Contains(readLog(home), "do=add-project") },
		"the dashboard to take the Add project request", rig.Later(func() string { return out.String() + readLog(home) }))
	win := xdo(t, display, "search", "--sync", "--name", "^Build Station$")
	win = strings.Fields(win)[0]
	time.Sleep(2 * time.Second) // the agents are asked for before the dialog opens
	xdo(t, display, "windowfocus", "--sync", win)
	// The folder field has the focus: type the folder, then Tab through
	// Choose… and Name to the agent, switch it to a custom command (→),
	// Tab to the command and type it.
	xdo(t, display, "type", "--delay", "15", web)
	xdo(t, display, "key", "--delay", "150", "Tab", "Tab", "Tab", "Right", "Tab")
	xdo(t, display, "type", "--delay", "15", "buildstation fake-agent")
	// Tab to the Gate and give it one.
	xdo(t, display, "key", "--delay", "150", "Tab")
	xdo(t, display, "type", "--delay", "15", "test -f work.txt")
	// The station checks the form once typing pauses; on a loaded machine
	// its answer (Add turned on) can take seconds to be drawn.
	time.Sleep(8 * time.Second)
	if dir := os.Getenv("SCREENSHOTS"); dir != "" {
		shot := filepath.Join(dir, "add-project.png")
		if b, err := exec.Command("import", "-display", display, "-window", win, shot).CombinedOutput(); err != nil {
			t.Errorf("screenshot: %v %s", err, b)
		}
	}
	// Setup, idle, block, review idle, Cancel, Add.
	xdo(t, display, "key", "--delay", "150", "Tab", "Tab", "Tab", "Tab", "Tab", "Tab", "space")
	cfg := filepath.Join(home, "config.toml")
	rig.Eventually(t, 30*time.Second, func() bool {
		b, _ := os.ReadFile(cfg)
		return bytes.Contains(b, []byte(fmt.Sprintf("[[projects]]\nname = %q\npath = %q\ncommand = [\"buildstation\", \"fake-agent\"]\ngate = \"test -f work.txt\"\n", filepath.Base(web), web)))
	}, "config.toml to hold the project", rig.Later(func() string { b, _ := os.ReadFile(cfg); return string(b) + readLog(home) }))

	id := s.AddTask(filepath.Base(web), "first task", "print hello; commit work; complete landed from the dashboard's project")
	if got := s.WaitState(id, "done", 60*time.Second); got.Summary != "landed from the dashboard's project" {
		t.Fatalf("task %+v", got)
	}
	w.waitView(t, it, 30*time.Second, "the first line gone", func(v view) bool {
		return len(v.Menu) > 0 && v.Menu[0] != "Add your first project"
	})
}

// xdo runs xdotool on display and answers what it printed.
func xdo(t *testing.T, display string, args ...string) string {
	t.Helper()
	cmd := exec.Command("xdotool", args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+display)
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("xdotool %v: %v\n%s", args, err, b)
	}
	return string(b)
}
