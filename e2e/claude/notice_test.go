//go:build linux

package claude

import (
	"bytes"

	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	e2erig "github.com/buildstation/buildstation/e2e/rig"
)

// notifyd is xfce4-notifyd, a notification daemon that draws a notice's
// actions as real buttons (dunst offers them only in a menu).
const notifyd = "/usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd"

// A permission request of the real Claude Code becomes a desktop notice
// with its buttons, shown by a real notification daemon (xfce4-notifyd
// under Xvfb, on a private bus), and a mouse click on its Allow once button
// (xdotool) reaches the session: the command runs and writes its marker,
// and the task's history says a person allowed it. SCREENSHOTS=DIR keeps
// the screen with the notice, the pointer on Allow once.
func TestClaudePermissionAllowedFromTheNotice(t *testing.T) {
	for _, p := range []string{"Xvfb", "xdotool", "import", notifyd} {
		if _, err := exec.LookPath(p); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is not installed (.ci/deps installs it)", p)
			}
			t.Skipf("%s is not installed", p)
		}
	}
	display := e2erig.Xvfb(t)
	bus := e2erig.PrivateBus(t)
	// The station shows its own notices on this desktop (no tray runs).
	t.Setenv("DISPLAY", display)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", bus)
	daemon := exec.Command(notifyd)
	daemon.Env = append(os.Environ(), "HOME="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir())
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { daemon.Process.Kill(); daemon.Wait() })
	shots := os.Getenv("SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}

	r := newRig(t, rigOptions{permissionMode: "default", window: "60s", usage: &apiUsage{Input: 1200, CacheRead: 40000, CacheWrite: 3000, Output: 400}},
		call("Bash", map[string]any{"command": "echo yes > allowed.marker", "description": "Write the allowed marker"}),
		call(completeTask, map[string]any{"summary": "e2e: allowed from the notice"}),
		say("Done."))
	id := r.addTask("web", "Fix the login page", "Write the marker.")
	sess := r.waitAsk(id, "echo yes > allowed.marker")

	var win string
	r.until("the notice on screen", 30*time.Second, r.api, id, func() bool {
		win = noticeWindow()
		return win != ""
	})
	time.Sleep(500 * time.Millisecond) // the daemon fades the notice in
	x, y := allowButton(t, win)
	// The pointer on Allow once first: the shot shows the button it presses.
	xdotool(t, "mousemove", strconv.Itoa(x), strconv.Itoa(y))
	time.Sleep(300 * time.Millisecond)
	shot(t, "root", filepath.Join(shots, "permission-notice.png"))
	xdotool(t, "click", "1")
	r.until("the allowed command run", 60*time.Second, r.api, id, func() bool {
		_, err := os.Stat(filepath.Join(sess.Dir, "allowed.marker"))
		return err == nil
	})
	hist := r.Must("task", "show", id, "--json")
	if !strings.Contains(hist, "allowed once Bash: echo yes") || !strings.Contains(hist, "person") {
		t.Errorf("the history lacks the person's decision:\n%s", hist)
	}
	r.until("the task done", 60*time.Second, r.api, id, func() bool { return r.Task(id).State == "done" })
}

func xdotool(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command("xdotool", args...).CombinedOutput(); err != nil {
		t.Fatalf("xdotool %s: %v %s", strings.Join(args, " "), err, out)
	}
}

// noticeWindow is the X window of the notice xfce4-notifyd shows, "" while
// none shows (the daemon keeps a 10×10 window of its own besides).
func noticeWindow() string {
	out, _ := exec.Command("xdotool", "search", "--onlyvisible", "--class", "xfce4-notifyd").Output()
	for _, w := range strings.Fields(string(out)) {
		if _, _, wd, h, ok := geometry(w); ok && wd > 100 && h > 50 {
			return w
		}
	}
	return ""
}

// geometry is a window's position and size on the screen.
func geometry(win string) (x, y, w, h int, ok bool) {
	out, err := exec.Command("xdotool", "getwindowgeometry", "--shell", win).Output()
	if err != nil {
		return 0, 0, 0, 0, false
	}
	v := map[string]int{}
	for _, l := range strings.Split(string(out), "\n") {
		if k, s, found := strings.Cut(l, "="); found {
			v[k], _ = strconv.Atoi(s)
		}
	}
	return v["X"], v["Y"], v["WIDTH"], v["HEIGHT"], true
}

// allowButton finds the notice's "Allow once" button on the screen: the
// daemon draws the actions as a row of buttons along the notice's bottom,
// right-aligned in the order given (Open, Allow once, Deny). It reads the
// notice's pixels along that row and takes the middle of the second
// button from the right.
func allowButton(t *testing.T, win string) (int, int) {
	t.Helper()
	x0, y0, _, h, ok := geometry(win)
	if !ok {
		t.Fatal("the notice's window has no geometry")
	}
	data, err := exec.Command("import", "-window", win, "png:-").Output()
	if err != nil {
		t.Fatalf("capture the notice: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	row := h - 31 // the buttons' middle: 32 px tall, 15 from the bottom
	runs := buttonRuns(img, row)
	if len(runs) != 3 {
		t.Fatalf("the notice's bottom row (y=%d) shows %d buttons %v, want Open, Allow once and Deny", row, len(runs), runs)
	}
	allow := runs[1]
	return x0 + (allow[0]+allow[1])/2, y0 + row
}

// buttonRuns are the stretches of row y that are not the notice's white
// background and are as wide as a button.
func buttonRuns(img image.Image, y int) [][2]int {
	white := func(x int) bool {
		r, g, b, _ := img.At(x, y).RGBA()
		return r>>8 >= 0xf8 && g>>8 >= 0xf8 && b>>8 >= 0xf8
	}
	var runs [][2]int
	b := img.Bounds()
	for x := b.Min.X + 1; x < b.Max.X-1; {
		if white(x) {
			x++
			continue
		}
		start := x
		for x < b.Max.X-1 && !white(x) {
			x++
		}
		if x-start >= 40 {
			runs = append(runs, [2]int{start, x})
		}
	}
	return runs
}

// shot saves window (or "root") as a PNG.
func shot(t *testing.T, window, file string) {
	t.Helper()
	if out, err := exec.Command("import", "-window", window, file).CombinedOutput(); err != nil {
		t.Logf("screenshot %s: %v %s", file, err, out)
		return
	}
	t.Logf("wrote %s", file)
}
