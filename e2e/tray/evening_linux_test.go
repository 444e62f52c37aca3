//go:build linux && cgo

package tray_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

// A desktop user's first evening, walked as a person would on a desktop
// with a tray host (xfce4-panel) and a notification daemon (dunst), at
// 1280×800: `buildstation` started on an empty home (it starts its
// station), the project added from the tray's first line with a gate
// (make test) in the Add project dialog, the station stopped and started
// again from the tray, Add Task… clicked right after Start station, the
// agent (a script) asking for a permission through the real hook, answered
// with a click on the card's Allow once within a second of the notice, the
// "Finished" notice, the diff window opened from the board and its Merge
// clicked (main fast-forwarded), the station restarted from the tray, and
// the diff still there. Clicks on windows are the pointer's (xdotool, the
// button found by its colour on the screen), the tray's menu lines are
// clicked over D-Bus as the panel does; the session's line opens a
// submenu with Console, Allow once and Deny on the panel. SCREENSHOTS=DIR keeps a PNG per
// step (evening-NN-*.png; make screenshots sets it).
func TestFirstEvening(t *testing.T) {
	d := newDesktop(t)
	userHome := t.TempDir()
	home := filepath.Join(t.TempDir(), "home") // nothing there yet
	// The user's project: a git repository whose gate is make test.
	repo := filepath.Join(userHome, "src", "hello-site")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	rig.Git(t, repo, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(repo, "Makefile"), []byte("test:\n\tgrep -q hello hello.txt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "README.md"), []byte("# hello-site\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rig.Git(t, repo, "add", "Makefile", "README.md")
	rig.Git(t, repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "a gate: make test")
	agent := filepath.Join(t.TempDir(), "greeter.sh")
	writeExec(t, agent, `#!/bin/sh
# A scripted agent: it asks to run a command through the agent hook (the
# PermissionRequest path Claude Code takes), runs it once allowed, commits
# and completes.
echo "Greeting the user on the first page..."
answer=$(printf '{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"echo hello > hello.txt"}}' | buildstation agent hook)
case "$answer" in
*'"behavior":"allow"'*) ;;
*) buildstation agent block --reason "the command was not allowed: $answer"; exit 0 ;;
esac
echo hello > hello.txt
git add hello.txt
git -c user.name=Greeter -c user.email=greeter@example.com -c commit.gpgsign=false commit -qm "hello: greet the user"
echo "committed hello.txt"
buildstation agent complete --summary "added hello.txt; make test passes"
`)
	env := append(rig.Env(rig.Bin(), home, "HOME="+userHome, "PATH="+filepath.Dir(rig.Bin())+":/usr/bin:/bin"), d.env...)
	t.Cleanup(func() { stopStationIn(t, home) })
	t.Cleanup(func() {
		if t.Failed() {
			d.shoot("failed")
			t.Logf("tray.log:\n%s\nstation.log:\n%s", lastLines(readLog(home), 40), lastLines(readFile(filepath.Join(home, "logs", "station.log")), 40))
		}
	})

	// The application menu's Build Station: `buildstation`, the tray with
	// its dashboard; with no station on the home it starts one.
	trayOut, _ := startTrayEnv(t, home, d.display, d.bus, env)
	w, it := d.trayItem(90 * time.Second)
	w.waitView(t, it, 90*time.Second, "the first line", func(v view) bool {
		return len(v.Menu) > 0 && v.Menu[0] == "Add your first project"
	})
	dash := d.window("^Build Station$", 90*time.Second)
	// The board from the station's first snapshot: its Add your first
	// project button.
	rig.Eventually(t, 60*time.Second, func() bool { return len(buttons(d.screen(), d.windowRect(dash))) > 0 },
		"the dashboard's Add your first project button")
	d.shoot("first-start")
	d.openMenu()
	time.Sleep(1500 * time.Millisecond) // the panel draws the menu
	d.shoot("tray-menu-empty")
	d.closeMenu()

	// Add project from the tray's first line: the folder typed, the agent
	// (none found on this machine: a custom command), the gate.
	logAt := len(readLog(home))
	w.click(t, it, "Add your first project")
	rig.Eventually(t, 60*time.Second, func() bool { return strings.Contains(readLog(home)[logAt:], "do=add-project") },
		"the dashboard to take the Add project request", rig.Later(func() string { return trayOut.String() + readLog(home) }))
	time.Sleep(2 * time.Second) // the agents are looked for before the dialog opens
	d.xdo("windowfocus", "--sync", dash)
	d.xdo("type", "--delay", "15", repo)
	d.xdo("key", "--delay", "150", "Tab", "Tab", "Tab", "Tab")
	d.xdo("type", "--delay", "15", "sh "+agent)
	d.xdo("key", "--delay", "150", "Tab", "ctrl+a")
	d.xdo("type", "--delay", "15", "make test")
	// The station checks the form once typing pauses: Add turns on.
	add := d.stableButton(d.windowRect(dash), 60*time.Second, "Add to turn on in the Add project dialog", last)
	d.shoot("add-project")
	d.click(add)
	cfg := filepath.Join(home, "config.toml")
	name := filepath.Base(repo)
	rig.Eventually(t, 30*time.Second, func() bool {
		b, _ := os.ReadFile(cfg)
		return strings.Contains(string(b), fmt.Sprintf("name = %q\npath = %q\ncommand = [\"sh\", %q]\ngate = \"make test\"\n", name, repo, agent))
	}, "config.toml to hold the project with its gate", rig.Later(func() string { b, _ := os.ReadFile(cfg); return string(b) }))
	w.waitView(t, it, 30*time.Second, "the first line gone", func(v view) bool {
		return len(v.Menu) > 0 && v.Menu[0] != "Add your first project"
	})
	time.Sleep(time.Second)
	d.shoot("project-added")

	// The station stops (as at a logout); the tray says so and offers
	// Start station.
	stopStationIn(t, home)
	w.waitView(t, it, 30*time.Second, "Start station", func(v view) bool { return slices.Contains(v.Menu, "Start station") })
	d.openMenu()
	time.Sleep(1500 * time.Millisecond)
	d.shoot("station-stopped")
	d.closeMenu()

	// Start station, and Add Task… at once: the dialog waits for the
	// station and offers the project.
	logAt = len(readLog(home))
	w.click(t, it, "Start station")
	w.click(t, it, "Add Task…")
	rig.Eventually(t, 60*time.Second, func() bool { return strings.Contains(readLog(home)[logAt:], "do=add-task") },
		"the dashboard to take the Add Task request", rig.Later(func() string { return trayOut.String() + readLog(home) }))
	noticesBefore := len(d.noticesNow())
	// The title field has the focus once the dialog shows; until the
	// station answers a "connecting" dialog stands in its place. Add
	// turns on once the title is typed.
	const title = "Greet the user on the first page"
	typeTitle := func() {
		d.xdo("windowfocus", "--sync", dash)
		d.xdo("key", "ctrl+a")
		d.xdo("type", "--delay", "10", title)
	}
	rig.Eventually(t, 90*time.Second, func() error {
		typeTitle()
		deadline := time.Now().Add(3 * time.Second)
		for time.Now().Before(deadline) {
			if bs := buttons(d.screen(), d.windowRect(dash)); len(bs) > 0 {
				return nil
			}
			time.Sleep(200 * time.Millisecond)
		}
		return fmt.Errorf("no Add turned on")
	}, "the Add Task dialog to take a title", rig.Later(func() string { return readLog(home) }))
	// The dialog may have come up in the middle of the typing: the
	// whole title once more, now that it is there.
	typeTitle()
	d.shoot("add-task-after-start")
	d.click(d.stableButton(d.windowRect(dash), 10*time.Second, "Add in the Add Task dialog", last))
	// From the click on Add, the screen is read every 50 ms until the
	// notice was asked for and the card shows Allow once: the card must
	// not lag the notice by more than a second.
	var (
		seen, absent time.Time // the first shot with the card's Allow once, the last without
		ask          notice
	)
	asked := func() bool {
		for _, n := range d.noticesNow()[noticesBefore:] {
			if strings.Contains(n.Summary, "asks") {
				ask = n
				return true
			}
		}
		return false
	}
	rig.Eventually(t, 120*time.Second, func() error {
		for end := time.Now().Add(time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
			at := time.Now()
			if seen.IsZero() {
				if len(buttons(d.screen(), d.windowRect(dash))) > 0 {
					seen = at
				} else {
					absent = at
				}
			}
			if !seen.IsZero() && asked() {
				return nil
			}
		}
		return fmt.Errorf("notices %d, Allow once on the card: %v", len(d.noticesNow())-noticesBefore, !seen.IsZero())
	}, "the permission's notice and the card's Allow once", rig.Later(func() string { return readLog(home) }))
	// A screenshot takes a while (a second and more on a loaded machine),
	// so the card's button came between the last shot without it and the
	// first with it: fail only on a shot that proves it missing more than
	// a second after the notice.
	late, missing := seen.Sub(ask.At), absent.Sub(ask.At)
	t.Logf("the notice %q; the card's Allow once on screen %s after it (still missing %s after it)", ask.Summary, late.Round(10*time.Millisecond), missing.Round(10*time.Millisecond))
	if missing > time.Second {
		t.Errorf("the card still had no Allow once %s after the notice, want within 1 s", missing.Round(10*time.Millisecond))
	}
	if !slices.ContainsFunc(ask.Actions, func(a string) bool { return a == "Allow once" }) {
		t.Errorf("the notice's actions %q have no Allow once", ask.Actions)
	}
	var id string
	var tasks []rig.Task
	cli(t, env, &tasks, "task", "ls", "--json")
	for _, tk := range tasks {
		if tk.Title == title && tk.Project == name {
			id = tk.ID
		}
	}
	if id == "" {
		t.Fatalf("no task %q in project %s: %+v", title, name, tasks)
	}
	d.shoot("asks")
	// The tray's line for the session opens a submenu with Console, Allow
	// once and Deny: read over D-Bus as the panel reads it, and shown by
	// the panel (the menu opened with a click, the line reached with the
	// keys, its submenu opened with Right).
	var line entry
	rig.Eventually(t, 30*time.Second, func() error {
		for _, e := range w.menuTree(t, it) {
			if strings.HasPrefix(e.Label, title) && len(e.Children) > 0 {
				line = e
				return nil
			}
		}
		return fmt.Errorf("no line for the session with a submenu")
	}, "the session's line in the tray's menu")
	var sub []string
	for _, c := range line.Children {
		sub = append(sub, c.Label)
	}
	if want := []string{"Console", "Allow once: Bash: echo hello > hello.txt", "Deny"}; !line.Submenu || !slices.Equal(sub, want) {
		t.Errorf("the session's line %q: submenu %v %q, want %q", line.Label, line.Submenu, sub, want)
	}
	d.openMenu()
	time.Sleep(1500 * time.Millisecond) // the panel draws the menu
	d.xdo("key", "--delay", "300", "Down", "Down", "Right")
	time.Sleep(time.Second)
	d.shoot("tray-submenu")
	d.xdo("key", "--delay", "200", "Escape", "Escape")
	d.click(d.stableButton(d.windowRect(dash), 10*time.Second, "Allow once on the card", first))
	time.Sleep(time.Second)
	d.shoot("allowed")
	var got rig.Task
	rig.Eventually(t, 90*time.Second, func() error {
		cli(t, env, &got, "task", "show", id, "--json")
		if got.State != "done" {
			return fmt.Errorf("task %s is %s (%s)", id, got.State, got.Reason)
		}
		return nil
	}, "the task done once allowed, its gate passed", rig.Later(func() string { b, _ := json.Marshal(got); return string(b) }))
	if h := cli(t, env, nil, "task", "show", id, "--json"); !strings.Contains(h, "allowed once") {
		t.Errorf("the task's history does not say a person allowed the command:\n%s", h)
	}
	var asks int
	for _, n := range d.noticesNow()[noticesBefore:] {
		if strings.Contains(n.Summary, "asks") {
			asks++
		}
	}
	if asks != 1 {
		t.Errorf("%d notices asked for the one request, want 1", asks)
	}

	// Finished: the notice, and the card ready to merge.
	fin := d.waitNotice(noticesBefore, "Finished", 60*time.Second)
	t.Logf("the finished notice: %q %q, actions %q", fin.Summary, fin.Body, fin.Actions)
	time.Sleep(time.Second)
	d.shoot("finished")

	// The diff window from the board (d on the selected card) and its
	// Merge.
	d.xdo("windowfocus", "--sync", dash)
	d.xdo("key", "--delay", "150", "Escape", "Escape", "Down", "d")
	diffName := "^Diff " + id + " "
	diff := d.window(diffName, 60*time.Second)
	dr := d.windowRect(diff)
	if dr.Dx() > 1280 || dr.Dy() > 800 {
		t.Errorf("the diff window is %dx%d on a 1280x800 screen", dr.Dx(), dr.Dy())
	}
	merge := d.stableButton(dr, 30*time.Second, "Merge in the diff window", last)
	time.Sleep(time.Second) // the diff read
	d.shoot("diff")
	d.click(merge)
	rig.Eventually(t, 30*time.Second, func() bool {
		return strings.Contains(rig.Git(t, repo, "log", "--format=%s", "main"), "hello: greet the user")
	}, "main to hold the task's commit")
	if b, err := os.ReadFile(filepath.Join(repo, "hello.txt")); err != nil || string(b) != "hello\n" {
		t.Errorf("the checked-out main has hello.txt %q (%v)", b, err)
	}
	time.Sleep(time.Second)
	d.shoot("merged")
	diffBefore := cli(t, env, nil, "task", "diff", id)
	if !strings.Contains(diffBefore, "+hello") {
		t.Errorf("task diff after the merge:\n%s", diffBefore)
	}

	// The station restarted from the tray: the diff is still there.
	stopStationIn(t, home)
	w.waitView(t, it, 30*time.Second, "Start station", func(v view) bool { return slices.Contains(v.Menu, "Start station") })
	w.click(t, it, "Start station")
	w.waitView(t, it, 60*time.Second, "the station back", func(v view) bool {
		return !slices.Contains(v.Menu, "Start station") && strings.Contains(v.Tooltip, "Working 0")
	})
	if after := cli(t, env, nil, "task", "diff", id); after != diffBefore {
		t.Errorf("task diff after the restart:\n%s\nwant, as before it:\n%s", after, diffBefore)
	}
	old := strings.Fields(d.xdo("search", "--onlyvisible", "--name", diffName))
	// The Merged dialog dismissed, the dashboard brought to the front (a
	// click on it, were there a window manager).
	d.xdo("windowfocus", "--sync", diff)
	d.xdo("key", "Escape")
	d.xdo("windowraise", dash)
	time.Sleep(2 * time.Second) // the dashboard reconnected and drew the board
	d.shoot("restarted")
	d.xdo("windowfocus", "--sync", dash)
	d.xdo("key", "--delay", "150", "Escape", "Escape", "Down", "d")
	var again string
	rig.Eventually(t, 60*time.Second, func() bool {
		out, _ := d.run("xdotool", "search", "--onlyvisible", "--name", diffName)
		for _, w := range strings.Fields(out) {
			if !slices.Contains(old, w) {
				again = w
			}
		}
		return again != ""
	}, "a second diff window after the restart")
	time.Sleep(2 * time.Second) // the diff read
	d.shoot("diff-after-restart")
}

// stopStationIn ends the station running on home (the tray started it:
// station.json has its pid) and waits for it to go; none running, it does
// nothing.
func stopStationIn(t *testing.T, home string) {
	t.Helper()
	var f struct {
		PID int `json:"pid"`
	}
	b, err := os.ReadFile(filepath.Join(home, "station.json"))
	if err != nil || json.Unmarshal(b, &f) != nil || f.PID == 0 || syscall.Kill(f.PID, 0) != nil {
		return
	}
	_ = syscall.Kill(f.PID, syscall.SIGTERM)
	rig.Eventually(t, 60*time.Second, func() bool { return syscall.Kill(f.PID, 0) != nil }, "the station to stop",
		rig.Later(func() string { return lastLines(readFile(filepath.Join(home, "logs", "station.log")), 20) }))
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(l[max(0, len(l)-n):], "\n")
}

func readFile(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}
