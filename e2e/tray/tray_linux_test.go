//go:build linux && cgo

package tray_test

import (
	"bytes"
	"fmt"
	"os/exec"
	"slices"
	"strings"
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
