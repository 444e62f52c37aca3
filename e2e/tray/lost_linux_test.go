//go:build linux && cgo

package tray_test

import (
	"bytes"
	"encoding/json"
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

// The station dies under its tray (kill -9). Within seconds the tray's
// tooltip and menu say "The station stopped at HH:MM", the icon turns to
// the red disc, and dunst shows one notice however often the tray retried
// meanwhile. A click on Start station (no autostart is installed here)
// starts a detached station; it answers the CLI, the tray's counts come
// back, and dunst shows one notice that it runs again.
func TestTrayNoticesALostStationAndStartsIt(t *testing.T) {
	need(t, "dunst", "dunst")
	need(t, "dunstctl", "dunst")
	display := startXvfb(t)
	bus := privateBus(t)
	dunst := startDunst(t, display, bus)
	w := newWatcher(t, bus)
	home := rig.WriteConfig(t, fmt.Sprintf("\n[[projects]]\nname = \"web\"\npath = %q\ncommand = [\"buildstation\", \"fake-agent\"]\n", t.TempDir()))
	s := rig.StartOn(t, home)
	out, tray := startTrayCmd(t, home, display, bus, "--hidden")
	it := w.waitItem(t, 60*time.Second, out)
	up := w.waitView(t, it, 60*time.Second, "a connected station", func(v view) bool { return strings.Contains(v.Tooltip, "Working 0") })

	s.Daemon.Kill9()
	killed := time.Now()
	lost := w.waitView(t, it, 30*time.Second, "the station lost", func(v view) bool {
		return strings.HasPrefix(v.Tooltip, "Build Station: The station stopped at ") &&
			len(v.Menu) > 1 && strings.HasPrefix(v.Menu[0], "The station stopped at ") && v.Menu[1] == "Start station"
	})
	took := time.Since(killed)
	t.Logf("%.1fs after the kill the tooltip says %q; the menu %q", took.Seconds(), lost.Tooltip, lost.Menu)
	if took > 10*time.Second {
		t.Errorf("the tray took %s to notice the station was gone, want seconds", took.Round(time.Second))
	}
	if bytes.Equal(lost.Icon, up.Icon) {
		t.Error("the icon did not change when the station was lost")
	}
	// The tray redials after 1, 2, 4 and 8 s: let it retry, then read
	// what dunst was asked to show.
	time.Sleep(16 * time.Second)
	if got := dunst.summaries(t); len(got) != 1 || !strings.HasPrefix(got[0], "The station stopped at ") {
		t.Fatalf("dunst showed %q after the tray's retries, want one \"The station stopped at …\"; tray.log:\n%s", got, readLog(home))
	}

	w.click(t, it, "Start station")
	back := w.waitView(t, it, 60*time.Second, "the station back", func(v view) bool {
		return strings.Contains(v.Tooltip, "Working 0") && !slices.Contains(v.Menu, "Start station")
	})
	kids := rig.ChildrenNamed(tray.Process.Pid, "daemon")
	t.Cleanup(func() {
		for _, pid := range kids {
			_ = syscall.Kill(pid, syscall.SIGTERM)
		}
		rig.Eventually(t, 20*time.Second, func() bool {
			for _, pid := range kids {
				if syscall.Kill(pid, 0) == nil {
					return false
				}
			}
			return true
		}, "the started station to stop")
	})
	if len(kids) != 1 {
		t.Errorf("the tray started %d daemons (%v), want one", len(kids), kids)
	}
	if st, _, code := s.Run("status"); code != 0 {
		t.Errorf("the station the tray started does not answer status (exit %d): %s", code, st)
	}
	if bytes.Equal(back.Icon, lost.Icon) {
		t.Error("the icon still shows the station lost")
	}
	time.Sleep(3 * time.Second) // a second notice, were one sent, would be in by now
	got := dunst.summaries(t)
	if len(got) != 2 || got[1] != "The station is running again" {
		t.Errorf("dunst showed %q, want the stop, then one \"The station is running again\"", got)
	}
}

// dunstd is a dunst of the test's own, on its display and bus.
type dunstd struct{ env []string }

func startDunst(t *testing.T, display, bus string) dunstd {
	t.Helper()
	cfg := t.TempDir()
	env := append(os.Environ(), "DISPLAY="+display, "DBUS_SESSION_BUS_ADDRESS="+bus, "HOME="+cfg, "XDG_CONFIG_HOME="+cfg)
	cmd := exec.Command("dunst")
	cmd.Env = env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	d := dunstd{env: env}
	rig.Eventually(t, 20*time.Second, func() bool { _, err := d.ctl("count", "displayed"); return err == nil }, "dunst to answer dunstctl")
	return d
}

func (d dunstd) ctl(args ...string) (string, error) {
	cmd := exec.Command("dunstctl", args...)
	cmd.Env = d.env
	b, err := cmd.Output()
	return strings.TrimSpace(string(b)), err
}

// summaries are the titles of every notice dunst showed, oldest first: the
// ones on screen are closed into its history, then the history is read.
func (d dunstd) summaries(t *testing.T) []string {
	t.Helper()
	if _, err := d.ctl("close-all"); err != nil {
		t.Fatalf("dunstctl close-all: %v", err)
	}
	raw, err := d.ctl("history")
	if err != nil {
		t.Fatalf("dunstctl history: %v", err)
	}
	var hist struct {
		Data [][]map[string]struct {
			Data any `json:"data"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(raw), &hist); err != nil {
		t.Fatalf("dunstctl history: %v\n%s", err, raw)
	}
	var out []string
	for _, group := range hist.Data {
		for _, n := range group {
			s, _ := n["summary"].Data.(string)
			out = append(out, s)
		}
	}
	slices.Reverse(out) // dunst lists the newest first
	return out
}

// Where `service install` put an autostart, Start station goes through it
// (a station its service manager supervises is restarted should it die
// again): here a stand-in systemctl on PATH, which records what it was
// asked and starts the station as the user unit would. The tray spawns no
// station of its own.
func TestStartStationGoesThroughTheInstalledAutostart(t *testing.T) {
	display := startXvfb(t)
	bus := privateBus(t)
	w := newWatcher(t, bus)
	home := rig.WriteConfig(t, fmt.Sprintf("\n[[projects]]\nname = \"web\"\npath = %q\ncommand = [\"buildstation\", \"fake-agent\"]\n", t.TempDir()))
	user := t.TempDir() // the tray's ~, where the unit is installed
	unit := filepath.Join(user, ".config", "systemd", "user", "buildstation.service")
	if err := os.MkdirAll(filepath.Dir(unit), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(unit, fmt.Appendf(nil, "[Service]\nExecStart=%q \"daemon\" \"--home\" %q\n", rig.Bin(), home), 0o644); err != nil {
		t.Fatal(err)
	}
	bin, calls := t.TempDir(), filepath.Join(t.TempDir(), "systemctl.log")
	script := fmt.Sprintf("#!/bin/sh\necho \"$*\" >> %q\ncase \"$*\" in *'enable --now buildstation.service'*) setsid %q --home %q daemon >/dev/null 2>&1 </dev/null & ;; esac\nexit 0\n", calls, rig.Bin(), home)
	if err := os.WriteFile(filepath.Join(bin, "systemctl"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	s := rig.StartOn(t, home)
	out, tray := startTrayEnv(t, home, display, bus, []string{"HOME=" + user, "PATH=" + bin + ":" + filepath.Dir(rig.Bin()) + ":" + os.Getenv("PATH")}, "--hidden")
	it := w.waitItem(t, 60*time.Second, out)
	w.waitView(t, it, 60*time.Second, "a connected station", func(v view) bool { return strings.Contains(v.Tooltip, "Working 0") })

	s.Daemon.Kill9()
	w.waitView(t, it, 30*time.Second, "Start station", func(v view) bool { return len(v.Menu) > 1 && v.Menu[1] == "Start station" })
	w.click(t, it, "Start station")
	w.waitView(t, it, 60*time.Second, "the station back", func(v view) bool { return strings.Contains(v.Tooltip, "Working 0") })
	t.Cleanup(func() { stopStationOf(t, home) })
	b, _ := os.ReadFile(calls)
	if !strings.Contains(string(b), "--user enable --now buildstation.service") {
		t.Errorf("the tray did not ask the user unit to start: systemctl was called with:\n%s\ntray.log:\n%s", b, readLog(home))
	}
	if kids := rig.ChildrenNamed(tray.Process.Pid, "daemon"); len(kids) != 0 {
		t.Errorf("the tray started a station of its own (%v) beside the autostart's", kids)
	}
	if st, _, code := s.Run("status"); code != 0 {
		t.Errorf("the autostart's station does not answer status (exit %d): %s", code, st)
	}
}

// stopStationOf ends the station whose station.json is in home: one the
// test did not start itself.
func stopStationOf(t *testing.T, home string) {
	var f struct {
		PID int `json:"pid"`
	}
	b, err := os.ReadFile(filepath.Join(home, "station.json"))
	if err != nil || json.Unmarshal(b, &f) != nil || f.PID == 0 {
		t.Errorf("no station.json to stop the station by (%v)", err)
		return
	}
	_ = syscall.Kill(f.PID, syscall.SIGTERM)
	rig.Eventually(t, 20*time.Second, func() bool { return syscall.Kill(f.PID, 0) != nil }, "the autostart's station to stop")
}
