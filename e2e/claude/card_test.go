//go:build linux

package claude

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	e2erig "github.com/buildstation/buildstation/e2e/rig"
)

// The dashboard's card of a real Claude Code session says what it does,
// what it asks and what it cost, on a desktop with a tray host
// (xfce4-panel under Xvfb, on a private bus): the session ran one command
// (allowed; its PostToolUse hook priced the transcript), then asks to run
// another; the tray (built with cgo) shows the board.
// SCREENSHOTS=DIR keeps the dashboard (1280×800, the whole screen).
func TestClaudeCardShowsWhatItAsksAndCosts(t *testing.T) {
	for _, p := range []string{"Xvfb", "xdotool", "import", "xfce4-panel", "dbus-send"} {
		if _, err := exec.LookPath(p); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is not installed (.ci/deps installs it)", p)
			}
			t.Skipf("%s is not installed", p)
		}
	}
	tray := e2erig.BinCGO(t)
	display := e2erig.Xvfb(t)
	// The panel's settings come from xfconf, which the bus starts: its
	// config home is set before the bus.
	cfg := t.TempDir()
	xml, err := os.ReadFile(filepath.Join(repoDir(t), "scripts", "screenshots", "xfce4-panel.xml"))
	if err != nil {
		t.Fatal(err)
	}
	channel := filepath.Join(cfg, "xfce4", "xfconf", "xfce-perchannel-xml")
	if err := os.MkdirAll(channel, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(channel, "xfce4-panel.xml"), xml, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CONFIG_HOME", cfg)
	bus := e2erig.PrivateBus(t)
	t.Setenv("DISPLAY", display)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", bus)
	t.Setenv("WAYLAND_DISPLAY", "")
	background(t, exec.Command("xfce4-panel"))
	e2erig.Eventually(t, 30*time.Second, func() bool {
		out, _ := exec.Command("dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.ListNames").Output()
		return strings.Contains(string(out), "org.kde.StatusNotifierWatcher")
	}, "the panel's tray host on the bus")
	shots := os.Getenv("SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}

	// A request waits idle_window for a person: long enough for the tray
	// to start and draw.
	r := newRig(t, rigOptions{permissionMode: "default", window: "180s", usage: &apiUsage{Input: 1200, CacheRead: 40000, CacheWrite: 3000, Output: 400}},
		call("Bash", map[string]any{"command": "echo built > build.marker", "description": "Build"}),
		call("Bash", map[string]any{"command": "npm publish --tag next", "description": "Publish the package"}),
		call(completeTask, map[string]any{"summary": "e2e: the card"}),
		say("Done."))
	id := r.addTask("web", "Fix the login page", "Publish it.")
	built := r.waitAsk(id, "echo built > build.marker")
	r.Must("session", "allow", id, "--request", built.WaitingOn.ID)
	r.waitAsk(id, "npm publish --tag next")
	var sess e2erig.Session
	r.until("the session's cost", 30*time.Second, r.api, id, func() bool {
		var ok bool
		sess, ok = r.SessionOf(id)
		return ok && sess.Usage != nil && sess.Usage.CostUSD > 0
	})
	// claude-opus-5-5, Claude Code's default, priced: 1,200 in × $4 + 40,000
	// cache read × $0.20 + 3,000 cache write × $5 + 400 out × $20 per million.
	if u := sess.Usage; u.CostUSD != 0.0358 || !strings.Contains(sess.Activity, "npm publish --tag next") {
		t.Errorf("activity %q, usage %+v; want it asking to run npm publish, at $0.0358", sess.Activity, *u)
	}

	cmd := exec.Command(tray, "--home", r.Home)
	cmd.Env = e2erig.Env(tray, r.Home)
	background(t, cmd)
	var win string
	r.until("the dashboard", 60*time.Second, r.api, id, func() bool {
		out, _ := exec.Command("xdotool", "search", "--onlyvisible", "--name", "^Build Station$").Output()
		win, _, _ = strings.Cut(strings.TrimSpace(string(out)), "\n")
		return win != ""
	})
	time.Sleep(3 * time.Second) // the board's first snapshot, drawn
	shot(t, win, filepath.Join(shots, "card-asks.png"))

	r.Must("session", "deny", id, "--note", "not from a test")
	r.until("the task done", 90*time.Second, r.api, id, func() bool { return r.Task(id).State == "done" })
}

// background starts cmd for the test and ends its process group at the
// test's cleanup.
func background(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	})
}

// repoDir is the repository's root: the test runs in e2e/claude.
func repoDir(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(wd, "..", "..")
}
