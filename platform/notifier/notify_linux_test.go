//go:build linux

package notifier

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/buildstation/buildstation/e2e/rig"
	"github.com/buildstation/buildstation/supervisor"
)

// fakeServer plays the desktop's notification daemon on a private bus.
type fakeServer struct {
	mu       sync.Mutex
	caps     []string
	calls    []string // title|body|actions
	replaces []uint32
	closed   []uint32
}

func (f *fakeServer) GetCapabilities() ([]string, *dbus.Error) { return f.caps, nil }

func (f *fakeServer) Notify(app string, replaces uint32, icon, title, body string, actions []string, hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, title+"|"+body+"|"+strings.Join(actions, ","))
	f.replaces = append(f.replaces, replaces)
	return uint32(len(f.calls) + 6), nil // ids 7, 8, …
}

func (f *fakeServer) CloseNotification(id uint32) *dbus.Error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = append(f.closed, id)
	return nil
}

// serve owns the notification service's name on the private bus.
func serve(t *testing.T, fake *fakeServer) *dbus.Conn {
	t.Helper()
	srvConn, err := dbus.ConnectSessionBus()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srvConn.Close() })
	if err := srvConn.Export(fake, dbusPath, dbusIface); err != nil {
		t.Fatal(err)
	}
	if reply, err := srvConn.RequestName(dbusDest, dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("own %s: %v %v", dbusDest, reply, err)
	}
	return srvConn
}

// privateBus starts a dbus-daemon of its own and points this process at it.
func privateBus(t *testing.T) {
	t.Helper()
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", rig.PrivateBus(t))
}

// A click on a notification's body or its "Open console" button opens that
// session's console in this tray; a click on another app's does nothing.
func TestDBusClickOpensTheConsole(t *testing.T) {
	privateBus(t)
	fake := &fakeServer{}
	srvConn := serve(t, fake)
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
	if len(got) != 1 || !strings.HasPrefix(got[0], "Blocked: migrate|") || !strings.HasSuffix(got[0], "|default,Open") {
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

// Hostile text reaches a markup-reading server escaped and without escape
// sequences; a second notice of the same kind replaces the first; Withdraw
// closes it (CloseNotification) once, and not again.
func TestDBusPayloadReplaceAndWithdraw(t *testing.T) {
	privateBus(t)
	fake := &fakeServer{caps: []string{"actions", "body", "body-markup"}}
	serve(t, fake)
	n, err := New(Options{AppName: "Build Station"})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	nudge := supervisor.Notice{Kind: supervisor.NoticeNudge, TaskID: "t3", SessionID: "t3.1",
		Title: "Nudged: <b>x</b>\x1b]0;pwned\a", Body: "last line ]]>$(calc) <script>\x1b]52;c;QUFB\a"}
	for range 2 {
		if err := n.Notify(nudge); err != nil {
			t.Fatal(err)
		}
	}
	if err := n.Withdraw(nudge); err != nil {
		t.Fatal(err)
	}
	if err := n.Withdraw(nudge); err != nil {
		t.Fatal(err)
	}
	fake.mu.Lock()
	defer fake.mu.Unlock()
	want := "Nudged: <b>x</b>|last line ]]&gt;$(calc) &lt;script&gt; (t3)|default,Open"
	if len(fake.calls) != 2 || fake.calls[0] != want {
		t.Fatalf("Notify calls %q, want twice %q", fake.calls, want)
	}
	if !slices.Equal(fake.replaces, []uint32{0, 7}) {
		t.Errorf("replaces_id %v: the second nudge should replace the first (7)", fake.replaces)
	}
	if !slices.Equal(fake.closed, []uint32{8}) {
		t.Errorf("CloseNotification %v, want [8] once", fake.closed)
	}
}

// A notice that carries what a session asks offers Allow once and Deny (or
// the question's options); a press decides, through Options.Decide, for
// that session; the body's click still opens the console. Without Decide
// there are no buttons.
func TestDBusButtonsDecide(t *testing.T) {
	privateBus(t)
	fake := &fakeServer{}
	srvConn := serve(t, fake)
	decided := make(chan string, 4)
	n, err := New(Options{AppName: "Build Station", Open: func(id string) { decided <- "open " + id },
		Decide: func(id, request, verb, answer string) {
			decided <- strings.TrimSpace(verb + " " + id + " request=" + request + " " + answer)
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	ask := &supervisor.WaitingOn{ID: "a1", Kind: supervisor.AskPermission, Tool: "Bash", Input: "rm -rf node_modules"}
	if err := n.Notify(supervisor.Notice{Kind: supervisor.NoticePermission, TaskID: "t7", SessionID: "t7.1", Title: "t7 asks to run `rm -rf node_modules`", Ask: ask}); err != nil {
		t.Fatal(err)
	}
	q := &supervisor.WaitingOn{ID: "b2", Kind: supervisor.AskQuestion, Tool: "AskUserQuestion", Input: "Which colour?", Options: []string{"red", "blue"}}
	if err := n.Notify(supervisor.Notice{Kind: supervisor.NoticePermission, TaskID: "t8", SessionID: "t8.1", Title: "t8 asks", Ask: q}); err != nil {
		t.Fatal(err)
	}
	fake.mu.Lock()
	got := slices.Clone(fake.calls)
	fake.mu.Unlock()
	if len(got) != 2 || !strings.HasSuffix(got[0], "|default,Open,allow,Allow once,deny,Deny") ||
		!strings.HasSuffix(got[1], "|default,Open,answer:red,red,answer:blue,blue,deny,Deny") {
		t.Fatalf("Notify calls %q", got)
	}
	for _, press := range []struct {
		id     uint32
		action string
		want   string
	}{{7, "allow", "allow t7.1 request=a1"}, {8, "answer:blue", "answer t8.1 request=b2 blue"}, {7, "default", "open t7.1"}} {
		if err := srvConn.Emit(dbusPath, dbusIface+".ActionInvoked", press.id, press.action); err != nil {
			t.Fatal(err)
		}
		select {
		case d := <-decided:
			if d != press.want {
				t.Errorf("pressed %s: %q, want %q", press.action, d, press.want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("pressing %s did nothing", press.action)
		}
	}
}
