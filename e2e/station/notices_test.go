//go:build linux

package station_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/buildstation/buildstation/e2e/rig"
)

// notifyServer plays the desktop's notification daemon on a private bus.
type notifyServer struct {
	mu     sync.Mutex
	shown  []string // summaries
	closed []uint32
}

func (f *notifyServer) GetCapabilities() ([]string, *dbus.Error) {
	return []string{"actions", "body", "body-markup"}, nil
}

func (f *notifyServer) Notify(app string, replaces uint32, icon, title, body string, actions []string, hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.shown = append(f.shown, title+"|"+body)
	return uint32(len(f.shown)), nil
}

func (f *notifyServer) CloseNotification(id uint32) *dbus.Error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = append(f.closed, id)
	return nil
}

func (f *notifyServer) state() ([]string, []uint32) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.shown...), append([]uint32(nil), f.closed...)
}

// sessionBus starts a private dbus-daemon with a stand-in notification
// daemon on it and returns the bus address.
func sessionBus(t *testing.T) (string, *notifyServer) {
	t.Helper()
	addr := rig.PrivateBus(t)
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	srv := &notifyServer{}
	if err := conn.Export(srv, "/org/freedesktop/Notifications", "org.freedesktop.Notifications"); err != nil {
		t.Fatal(err)
	}
	if reply, err := conn.RequestName("org.freedesktop.Notifications", dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("own the notification service: %v %v", reply, err)
	}
	return addr, srv
}

// A station with no tray reaches a person by itself: its [hooks] programs
// get each event as JSON on stdin (argv, no shell), and its notices show on
// the desktop's notification service, withdrawn when what they announced is
// over. While a tray is connected the desktop gets none from the station.
func TestStationHooksAndDesktopNotices(t *testing.T) {
	t.Parallel()
	bus, desk := sessionBus(t)
	dir := t.TempDir()
	hook := filepath.Join(dir, "hook.sh")
	// The hook appends one line per event: its argument, then its stdin.
	writeFile(t, hook, "#!/bin/sh\n{ printf '%s ' \"$1\"; cat; echo; } >> \""+filepath.Join(dir, "events")+"\"\n")
	if err := os.Chmod(hook, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := rig.ProjectTOML("web", t.TempDir(), "1s", "2s") + `
[hooks]
on_nudge = ["` + hook + `", "nudge;$(id)"]
on_block = ["` + hook + `", "block"]
on_done = ["` + hook + `", "done"]
timeout = "10s"
`
	home := rig.WriteConfig(t, cfg)
	s := rig.StartOn(t, home, "DISPLAY=:77", "WAYLAND_DISPLAY=", "DBUS_SESSION_BUS_ADDRESS="+bus)

	wedged := s.AddTask("web", "wedged <b>migrate</b>", "print Taking the <i>schema</i> lock; wedge")
	s.WaitState(wedged, "blocked", 30*time.Second)
	finished := s.AddTask("web", "finished", "print hello; complete all green")
	s.WaitState(finished, "done", 30*time.Second)

	type line struct {
		arg string
		ev  map[string]any
	}
	var lines []line
	rig.Eventually(t, 20*time.Second, func() bool {
		b, _ := os.ReadFile(filepath.Join(dir, "events"))
		lines = nil
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			arg, js, ok := strings.Cut(l, " ")
			var ev map[string]any
			if ok && json.Unmarshal([]byte(js), &ev) == nil {
				lines = append(lines, line{arg, ev})
			}
		}
		return len(lines) >= 3
	}, "three hook runs (nudge, block, done)")
	want := []struct{ arg, event, task string }{{"nudge;$(id)", "nudge", wedged}, {"block", "block", wedged}, {"done", "done", finished}}
	for i, w := range want {
		if lines[i].arg != w.arg || lines[i].ev["event"] != w.event || lines[i].ev["task_id"] != w.task || lines[i].ev["project"] != "web" {
			t.Errorf("hook run %d: %q %v, want %+v", i, lines[i].arg, lines[i].ev, w)
		}
	}
	if !strings.Contains(s.Log.String(), "hook ran") {
		t.Errorf("the station log does not say the hooks ran:\n%s", s.Log)
	}

	// The desktop: nudge then block shown, the nudge withdrawn by the
	// block; then the finished task, with its agent's summary.
	shown, closed := desk.state()
	if len(shown) != 3 || !strings.HasPrefix(shown[0], "Nudged: wedged <b>migrate</b>|") || !strings.HasPrefix(shown[1], "Blocked: wedged <b>migrate</b>|") ||
		!strings.HasPrefix(shown[2], "Finished: finished|all green") {
		t.Fatalf("desktop showed %q, want the nudge, the block and the finished task", shown)
	}
	// In plain words, escaped for a server that reads markup.
	if _, body, _ := strings.Cut(shown[1], "|"); !strings.Contains(body, " after a nudge — last line: 'Taking the &lt;i&gt;schema&lt;/i&gt; lock'") || strings.Contains(body, "<") {
		t.Errorf("block notice body %q", body)
	}
	if r := s.Task(wedged).Reason; !strings.Contains(r, "watchdog: no output for") {
		t.Errorf("the card lost the watchdog's reason: %q", r)
	}
	if len(closed) != 1 || closed[0] != 1 {
		t.Errorf("CloseNotification %v, want the nudge (1) withdrawn once the task was blocked", closed)
	}

	// A tray connects: the station shows nothing more itself.
	c := s.Client()
	c.ShowsNotices = true
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events, err := c.Events(ctx)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for range events {
		}
	}()
	second := s.AddTask("web", "wedged again", "print still; wedge")
	s.WaitState(second, "blocked", 30*time.Second)
	rig.Eventually(t, 20*time.Second, func() bool {
		b, _ := os.ReadFile(filepath.Join(dir, "events"))
		return strings.Count(string(b), `"task_id":"`+second+`"`) >= 2
	}, "the second block's hook")
	if shown, _ := desk.state(); len(shown) != 3 {
		t.Errorf("with a tray connected the station still showed %q", shown[3:])
	}
}
