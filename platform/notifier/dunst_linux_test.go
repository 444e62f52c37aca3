//go:build linux

package notifier

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/supervisor"
)

// need finds a program the test runs, or skips (fails in CI, where
// .ci/deps installs it).
func need(t *testing.T, progs ...string) {
	t.Helper()
	for _, p := range progs {
		if _, err := exec.LookPath(p); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is not installed (.ci/deps installs it)", p)
			}
			t.Skipf("%s is not installed", p)
		}
	}
}

// xvfb starts a virtual display and points this process at it.
func xvfb(t *testing.T) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "640x480x24", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	n, err := bufio.NewReader(r).ReadString('\n')
	r.Close()
	if err != nil {
		t.Fatalf("Xvfb did not say its display: %v", err)
	}
	t.Setenv("DISPLAY", ":"+strings.TrimSpace(n))
}

// dunstctl runs dunst's own client on the test's bus.
func dunstctl(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("dunstctl", args...).Output()
	if err != nil {
		t.Fatalf("dunstctl %s: %v", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out))
}

func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	testwait.Eventually(t, 20*time.Second, ok, what)
}

// Against a real notification daemon (dunst under Xvfb): a notice with
// hostile text arrives with its markup escaped (shown as the literal text)
// and no escape sequence, a second one of its group replaces it, and
// Withdraw takes it off the screen.
func TestRealNotificationDaemon(t *testing.T) {
	need(t, "dbus-daemon", "Xvfb", "dunst", "dunstctl")
	privateBus(t)
	xvfb(t)
	home := t.TempDir()
	cmd := exec.Command("dunst")
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home) // dunst's built-in defaults
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	eventually(t, "dunst owns the notification service", func() bool {
		var has bool
		return conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, dbusDest).Store(&has) == nil && has
	})

	n, err := New(Options{AppName: "Build Station"})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if !n.markup {
		t.Fatal("dunst advertises body-markup; the notifier did not see it")
	}
	nudge := supervisor.Notice{Kind: supervisor.NoticeNudge, TaskID: "t3", SessionID: "t3.1",
		Title: "Nudged: <b>migrate</b>\x1b]0;pwned\a", Body: "Silent 40 s — last line: '<i>Taking</i> the lock & ]]>$(calc)\x1b]52;c;QUFB\a'"}
	for range 2 {
		if err := n.Notify(nudge); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, "one notice on screen", func() bool { return dunstctl(t, "count", "displayed") == "1" })
	if err := n.Withdraw(nudge); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the notice withdrawn", func() bool { return dunstctl(t, "count", "displayed") == "0" })

	// What dunst showed, from its history.
	var hist struct {
		Data [][]map[string]struct {
			Data any `json:"data"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(dunstctl(t, "history")), &hist); err != nil {
		t.Fatal(err)
	}
	if len(hist.Data) != 1 || len(hist.Data[0]) != 1 {
		t.Fatalf("dunst's history %+v, want the one notice (the second replaced the first)", hist.Data)
	}
	h := hist.Data[0][0]
	summary, _ := h["summary"].Data.(string)
	body, _ := h["body"].Data.(string)
	if summary != "Nudged: <b>migrate</b>" {
		t.Errorf("summary %q", summary)
	}
	// dunst keeps the body as received; it renders it with Pango markup, so
	// escaped is what shows the text as written.
	if want := "Silent 40 s — last line: '&lt;i&gt;Taking&lt;/i&gt; the lock &amp; ]]&gt;$(calc)' (t3)"; body != want {
		t.Errorf("dunst got the body %q\nwant %q", body, want)
	}
}
