//go:build linux

package notify

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/buildstation/buildstation/supervisor"
)

// fakeServer plays the desktop's notification daemon on a private bus.
type fakeServer struct {
	mu    sync.Mutex
	calls []string // title|body|actions
}

func (f *fakeServer) Notify(app string, replaces uint32, icon, title, body string, actions []string, hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, title+"|"+body+"|"+strings.Join(actions, ","))
	return uint32(len(f.calls) + 6), nil // ids 7, 8, …
}

// privateBus starts a dbus-daemon of its own and points this process at it.
func privateBus(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("dbus-daemon is not installed (apt-get install dbus)")
		}
		t.Skip("dbus-daemon is not installed")
	}
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", strings.TrimSpace(addr))
}

// A click on a notification's body or its "Open console" button opens that
// session's console in this tray; a click on another app's does nothing.
func TestDBusClickOpensTheConsole(t *testing.T) {
	privateBus(t)
	srvConn, err := dbus.ConnectSessionBus()
	if err != nil {
		t.Fatal(err)
	}
	defer srvConn.Close()
	fake := &fakeServer{}
	if err := srvConn.Export(fake, dbusPath, dbusIface); err != nil {
		t.Fatal(err)
	}
	if reply, err := srvConn.RequestName(dbusDest, dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("own %s: %v %v", dbusDest, reply, err)
	}
	opened := make(chan string, 4)
	n, err := New(Options{AppName: "Build Station", Open: func(id string) { opened <- id }})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if err := n.Notify(supervisor.Notice{Kind: supervisor.NoticeBlock, TaskID: "t3", SessionID: "t3.1", Title: "Blocked: migrate", Body: "watchdog: silent"}); err != nil {
		t.Fatal(err)
	}
	fake.mu.Lock()
	got := fake.calls
	fake.mu.Unlock()
	if len(got) != 1 || !strings.HasPrefix(got[0], "Blocked: migrate|") || !strings.Contains(got[0], "default,Open console") {
		t.Fatalf("Notify calls %q", got)
	}
	emit := func(id uint32, action string) {
		if err := srvConn.Emit(dbusPath, dbusIface+".ActionInvoked", id, action); err != nil {
			t.Fatal(err)
		}
	}
	emit(99, "default") // someone else's notification
	emit(7, "default")
	select {
	case id := <-opened:
		if id != "t3.1" {
			t.Fatalf("opened %q, want t3.1", id)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a click did not open the console")
	}
	select {
	case id := <-opened:
		t.Fatalf("opened %q for a click on another app's notification", id)
	case <-time.After(200 * time.Millisecond):
	}
}
