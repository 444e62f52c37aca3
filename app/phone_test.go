package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/supervisor"
)

// The Phone section sends its form for the station to check and test,
// and shows what the service answered or what to fix.
func TestPhoneSection(t *testing.T) {
	test.NewTempApp(t)
	f := newPhoneForm()
	fake := &fakeClient{}
	f.server.SetText(" https://ntfy.example ")
	f.topic.SetText("builds-k3x9q")
	f.quiet.SetText("23:00-07:00")
	if got := f.table(); got["url"] != "https://ntfy.example" || got["topic"] != "builds-k3x9q" || got["quiet"] != "23:00-07:00" || got["service"] != "ntfy" {
		t.Errorf("table %v", got)
	}
	f.test(context.Background(), fake)
	waitAnswer(t, f, "Sent through ntfy: ntfy took message abc on topic builds-k3x9q")
	f.server.SetText("")
	f.test(context.Background(), fake)
	waitAnswer(t, f, "Not sent: phone.url: is missing")
}

// waitAnswer waits for the answer fyne.Do sets.
func waitAnswer(t *testing.T, f *phoneForm, prefix string) {
	t.Helper()
	testwait.Eventually(t, 10*time.Second, func() bool {
		var s string
		fyne.DoAndWait(func() { s = f.answer.Text })
		return strings.HasPrefix(s, prefix)
	}, "the Phone section's answer "+prefix)
}

// A phone service that does not take notices is one line of the tray's
// menu, in status's words, from the station's status and then its event;
// the line goes when the service answers again.
func TestTrayShowsThePhoneOnce(t *testing.T) {
	fake := newFake()
	fake.projects = []supervisor.ProjectInfo{{Name: "web"}}
	fake.phone = &supervisor.PhoneLink{Service: "ntfy", Host: "ntfy.example", OK: true}
	u := newTestUI(t, fake, t0)
	c := u.conn
	c.coalesce = time.Millisecond
	snaps := make(chan Snapshot, 16)
	c.onSnap = func(s Snapshot) { snaps <- s }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.Run(ctx)
	await := func(what string, ok func(Snapshot) bool) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case s := <-snaps:
				u.apply(s)
				if ok(s) {
					return
				}
			case <-deadline:
				t.Fatalf("no snapshot with %s; the last: %+v", what, u.snap)
			}
		}
	}
	phoneLines := func() []string {
		var out []string
		for _, l := range TrayLines(u.snap) {
			if strings.Contains(l.Label, "Phone") || strings.Contains(l.Label, "phone") {
				out = append(out, l.Label)
			}
		}
		return out
	}
	await("the station", func(s Snapshot) bool { return s.Connected && s.Phone != nil })
	if got := phoneLines(); len(got) != 0 {
		t.Fatalf("while the service answers the menu says %q", got)
	}
	since := time.Date(2026, 12, 5, 3, 12, 0, 0, time.Local)
	down := supervisor.PhoneLink{Service: "ntfy", Host: "ntfy.example", Since: since, Queued: 2, Error: "the ntfy server answered 503"}
	fake.events <- supervisor.Event{Kind: supervisor.EventPhone, Phone: &down}
	await("the phone down", func(s Snapshot) bool { return s.Phone != nil && !s.Phone.OK })
	const want = "Phone: ntfy.example not answering since 03:12 — retrying"
	if got := phoneLines(); len(got) != 1 || got[0] != want {
		t.Fatalf("the menu's phone lines are %q; want once %q", got, want)
	}
	for _, l := range TrayLines(u.snap) {
		if l.Label == want && l.Action != ActSettings {
			t.Errorf("the phone's line opens %v; want the notification settings", l.Action)
		}
	}
	up := supervisor.PhoneLink{Service: "ntfy", Host: "ntfy.example", OK: true}
	fake.events <- supervisor.Event{Kind: supervisor.EventPhone, Phone: &up}
	await("the phone back", func(s Snapshot) bool { return s.Phone != nil && s.Phone.OK })
	if got := phoneLines(); len(got) != 0 {
		t.Fatalf("once the service answers the menu says %q", got)
	}
}
