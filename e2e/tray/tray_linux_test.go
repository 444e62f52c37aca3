//go:build linux && cgo

package tray_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

// A desktop's tray host sees Build Station's item register, and sees its
// icon, tooltip and menu follow the board: a session working, then the
// same task blocked.
func TestTrayRegistersAndFollowsTheBoard(t *testing.T) {
	display := startXvfb(t)
	bus := privateBus(t)
	w := newWatcher(t, bus)
	cfg := fmt.Sprintf("\n[[projects]]\nname = \"web\"\npath = %q\ncommand = [\"buildstation\", \"fake-agent\"]\nidle_window = \"10m\"\nblock_window = \"10m\"\n", t.TempDir())
	home := rig.WriteConfig(t, cfg)
	s := rig.StartOn(t, home)
	out := startTray(t, home, display, bus, "--hidden")

	it := w.waitItem(t, 60*time.Second, out)
	idle := w.waitView(t, it, 60*time.Second, "an idle connected station", func(v view) bool {
		return strings.Contains(v.Tooltip, "Working 0") && len(v.Menu) > 0 && len(v.Icon) > 0
	})
	if idle.IconW < 16 {
		t.Fatalf("icon is %dpx wide", idle.IconW)
	}
	if strings.HasSuffix(idle.Menu[0], "(off)") {
		t.Fatalf("the menu's first line %q is greyed out: it should be readable", idle.Menu[0])
	}

	id := s.AddTask("web", "Take the schema lock", "print taking the lock; read-prompt go?; block the schema lock is held by another migration")
	working := w.waitView(t, it, 60*time.Second, "a working session", func(v view) bool {
		return strings.Contains(v.Tooltip, "Working 1") && slices.ContainsFunc(v.Menu, func(l string) bool {
			return strings.Contains(l, "Take the schema lock") && strings.Contains(l, "working")
		})
	})
	if bytes.Equal(working.Icon, idle.Icon) {
		t.Fatal("the icon did not change when a session started working")
	}
	s.WaitTranscript(id, "go?", 30*time.Second)
	s.Must("session", "send", id+".1", "yes")
	s.WaitState(id, "blocked", 30*time.Second)
	blocked := w.waitView(t, it, 60*time.Second, "a blocked task", func(v view) bool {
		return strings.Contains(v.Tooltip, "Blocked 1")
	})
	if bytes.Equal(blocked.Icon, working.Icon) || bytes.Equal(blocked.Icon, idle.Icon) {
		t.Fatal("the icon did not change when the task was blocked")
	}
	if !strings.Contains(strings.Join(blocked.Menu, "\n"), "Blocked 1") {
		t.Fatalf("the menu does not say the blocked count in words: %q", blocked.Menu)
	}
}

// The tray process runs no window: a click on "Open Dashboard" starts the
// dashboard process (`buildstation dashboard`), whose window shows on the
// display; a second click and `buildstation open` reuse it (one dashboard
// per home), and it ends with the tray.
func TestMenuClickStartsTheDashboardProcess(t *testing.T) {
	need(t, "xwininfo", "x11-utils")
	display := startXvfb(t)
	bus := privateBus(t)
	w := newWatcher(t, bus)
	home := rig.WriteConfig(t, fmt.Sprintf("\n[[projects]]\nname = \"web\"\npath = %q\ncommand = [\"buildstation\", \"fake-agent\"]\n", t.TempDir()))
	rig.StartOn(t, home)
	out, tray := startTrayCmd(t, home, display, bus, "--hidden")
	it := w.waitItem(t, 60*time.Second, out)
	w.waitView(t, it, 60*time.Second, "a connected station", func(v view) bool { return strings.Contains(v.Tooltip, "Working 0") })
	if kids := rig.ChildrenNamed(tray.Process.Pid, "dashboard"); len(kids) != 0 || windowTitled(t, display, "Build Station") {
		t.Fatalf("the hidden tray started a dashboard before any click (processes %v)", kids)
	}

	w.click(t, it, "Open Dashboard")
	var kid int
	rig.Eventually(t, 60*time.Second, func() bool {
		if kids := rig.ChildrenNamed(tray.Process.Pid, "dashboard"); len(kids) > 0 {
			kid = kids[0]
		}
		return kid != 0 && windowTitled(t, display, "Build Station")
	}, "a dashboard process and its window after the click", rig.Later(func() string {
		return fmt.Sprintf("dashboard process %d; tray output:\n%s\ntray.log:\n%s", kid, out, readLog(home))
	}))

	w.click(t, it, "Open Dashboard")
	cmd := exec.Command(rig.Bin(), "--home", home, "open")
	cmd.Env = append(rig.Env(rig.Bin(), home), "DISPLAY="+display, "DBUS_SESSION_BUS_ADDRESS="+bus)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("buildstation open: %v\n%s", err, b)
	}
	time.Sleep(2 * time.Second) // a second process, were one started, would be up by now
	if kids := rig.ChildrenNamed(tray.Process.Pid, "dashboard"); len(kids) != 1 || kids[0] != kid {
		t.Fatalf("dashboard processes %v after a second click and an open, want the first one (%d) alone", kids, kid)
	}

	_ = tray.Process.Signal(syscall.SIGTERM)
	rig.Eventually(t, 20*time.Second, func() bool { return syscall.Kill(kid, 0) != nil },
		fmt.Sprintf("the dashboard process %d to end with its tray", kid))
}

func readLog(home string) string {
	b, _ := os.ReadFile(filepath.Join(home, "logs", "tray.log"))
	return string(b)
}

// Without a display, or on a display with no OpenGL 2.1 (an X server
// without GLX stands in for a VM's basic driver), the tray says why in
// one sentence and exits non-zero: no GLFW panic.
func TestTrayWithoutDisplayOrOpenGL(t *testing.T) {
	need(t, "Xvfb", "xvfb")
	noGL := startXvfb(t, "-extension", "GLX")
	for _, c := range []struct{ name, display, want string }{
		{"no display", "", "no display"},
		{"a display that refuses", ":9876", "no display"},
		{"no OpenGL 2.1", noGL, "no OpenGL 2.1"},
	} {
		for _, args := range [][]string{{"--hidden"}, {"demo"}} {
			home := t.TempDir()
			cmd := exec.Command(rig.Bin(), append([]string{"--home", home}, args...)...)
			cmd.Env = append(rig.Env(rig.Bin(), home), "DISPLAY="+c.display, "WAYLAND_DISPLAY=")
			out, err := cmd.CombinedOutput()
			code := cmd.ProcessState.ExitCode()
			text := strings.TrimSpace(string(out))
			if err == nil || code == 0 {
				t.Errorf("%s, %v: exit 0", c.name, args)
			}
			if strings.Contains(text, "panic") || strings.Count(text, "\n") > 0 || !strings.Contains(text, c.want) {
				t.Errorf("%s, %v: want one line saying %q, got:\n%s", c.name, args, c.want, text)
			}
		}
	}
}
