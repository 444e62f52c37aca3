//go:build linux

package notifier

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// A real notification daemon (dunst, under Xvfb) shows a permission notice
// with its buttons; choosing "Allow once" in dunst's context menu (its
// dmenu, here a script that picks that line) reaches Options.Decide for
// the session, and so does "Deny", the notice's second button, on the
// next request. SCREENSHOT=file saves the screen while the notice shows.
func TestRealDaemonButtonDecides(t *testing.T) {
	need(t, "dbus-daemon", "Xvfb", "dunst", "dunstctl")
	privateBus(t)
	xvfb(t)
	home := t.TempDir()
	pick := filepath.Join(home, "pick.sh")
	choice := filepath.Join(home, "choice")
	// The menu shows the notice's buttons; the script records them and
	// picks the one named in choice.
	script := "#!/bin/sh\ncat >" + filepath.Join(home, "menu") + "\ngrep -m1 \"$(cat " + choice + ")\" " + filepath.Join(home, "menu") + "\n"
	dunst(t, home, pick, script)
	decided := make(chan string, 2)
	n, err := New(Options{AppName: "Build Station", Open: func(id string) { decided <- "open " + id },
		Decide: func(id, request, verb, answer string) { decided <- verb + " " + id + " " + request }})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	for i, c := range []struct{ label, want string }{{"Allow once", "allow t7.1 r1"}, {"Deny", "deny t7.1 r2"}} {
		if err := os.WriteFile(choice, []byte(c.label), 0o644); err != nil {
			t.Fatal(err)
		}
		ask := &supervisor.WaitingOn{ID: fmt.Sprintf("r%d", i+1), Kind: supervisor.AskPermission, Tool: "Bash", Input: "rm -rf node_modules"}
		if err := n.Notify(supervisor.Notice{Kind: supervisor.NoticePermission, TaskID: "t7", SessionID: "t7.1",
			Title: "Fix the login page asks to run a command", Body: "Bash: rm -rf node_modules", Ask: ask}); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the notice on screen", func() bool { return dunstctl(t, "count", "displayed") == "1" })
		if shot := os.Getenv("SCREENSHOT"); shot != "" && i == 0 {
			time.Sleep(500 * time.Millisecond)
			if out, err := exec.Command("import", "-window", "root", shot).CombinedOutput(); err != nil {
				t.Logf("screenshot: %v %s", err, out)
			}
		}
		dunstctl(t, "context")
		select {
		case d := <-decided:
			if d != c.want {
				menu, _ := os.ReadFile(filepath.Join(home, "menu"))
				t.Errorf("choosing %s in the daemon gave %q, want %q; the menu offered:\n%s", c.label, d, c.want, menu)
			}
		case <-time.After(10 * time.Second):
			menu, _ := os.ReadFile(filepath.Join(home, "menu"))
			t.Fatalf("choosing %s in the daemon decided nothing; the menu offered:\n%s", c.label, menu)
		}
		dunstctl(t, "close-all")
	}
}

// A finished notice whose work waits on a branch carries View diff and
// Merge, as its card does: choosing Merge in a real daemon's menu (dunst)
// reaches Options.Land with the task and "merge", View diff with "diff";
// a notice of work with no branch has no such buttons.
func TestRealDaemonFinishedNoticeLands(t *testing.T) {
	need(t, "dbus-daemon", "Xvfb", "dunst", "dunstctl")
	privateBus(t)
	xvfb(t)
	home := t.TempDir()
	pick := filepath.Join(home, "pick.sh")
	choice := filepath.Join(home, "choice")
	// The menu shows the notice's buttons; the script records them and
	// picks the one named in choice.
	script := "#!/bin/sh\ncat >" + filepath.Join(home, "menu") + "\ngrep -m1 \"$(cat " + choice + ")\" " + filepath.Join(home, "menu") + "\n"
	dunst(t, home, pick, script)
	got := make(chan string, 4)
	n, err := New(Options{AppName: "Build Station", Open: func(id string) { got <- "open " + id },
		Decide: func(id, request, verb, answer string) { got <- verb + " " + id },
		Land:   func(sessionID, taskID, verb string) { got <- verb + " " + taskID + " " + sessionID }})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	for _, c := range []struct{ label, want string }{{"Merge", "merge t7 t7.1"}, {"View diff", "diff t7 t7.1"}} {
		if err := os.WriteFile(choice, []byte(c.label), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := n.Notify(supervisor.Notice{Kind: supervisor.NoticeFinished, TaskID: "t7", SessionID: "t7.1", Branch: "bs/t7",
			Title: "Finished: Fix the login page", Body: "fixed it\nNot merged yet."}); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the notice on screen", func() bool { return dunstctl(t, "count", "displayed") == "1" })
		if shot := os.Getenv("SCREENSHOT"); shot != "" {
			time.Sleep(500 * time.Millisecond)
			if out, err := exec.Command("import", "-window", "root", shot).CombinedOutput(); err != nil {
				t.Logf("screenshot: %v %s", err, out)
			}
		}
		dunstctl(t, "context")
		select {
		case d := <-got:
			if d != c.want {
				menu, _ := os.ReadFile(filepath.Join(home, "menu"))
				t.Errorf("choosing %s in the daemon gave %q, want %q; the menu offered:\n%s", c.label, d, c.want, menu)
			}
		case <-time.After(10 * time.Second):
			menu, _ := os.ReadFile(filepath.Join(home, "menu"))
			t.Fatalf("choosing %s in the daemon did nothing; the menu offered:\n%s", c.label, menu)
		}
		dunstctl(t, "close-all")
	}
	if m := newMessage(supervisor.Notice{Kind: supervisor.NoticeFinished, TaskID: "t8", SessionID: "t8.1", Title: "Finished: notes"}); len(m.Actions) != 0 {
		t.Errorf("a finished notice of work with no branch offers %+v", m.Actions)
	}
}

// dunst runs a real dunst in home until the test ends, its menu of a
// notice's buttons the script written at pick (it reads the buttons on
// stdin and prints the one to choose).
func dunst(t *testing.T, home, pick, script string) {
	t.Helper()
	if err := os.WriteFile(pick, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(home, "dunst"), 0o755); err != nil {
		t.Fatal(err)
	}
	rc := "[global]\ndmenu = " + pick + "\nwidth = 600\nfont = Monospace 11\n"
	if err := os.WriteFile(filepath.Join(home, "dunst", "dunstrc"), []byte(rc), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("dunst")
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	time.Sleep(time.Second) // dunst owns the bus name by then
}
