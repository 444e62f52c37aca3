package app

import (
	"context"
	"reflect"
	"slices"
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
	f.service.SetSelected("ntfy")
	f.server.SetText(" https://ntfy.example ")
	f.topic.SetText("builds-k3x9q")
	f.quiet.SetText("23:00-07:00")
	if got := f.table(); got["url"] != "https://ntfy.example" || got["topic"] != "builds-k3x9q" || got["quiet"] != "23:00-07:00" || got["service"] != "ntfy" {
		t.Errorf("table %v", got)
	}
	f.test(context.Background(), fake, f.table())
	waitAnswer(t, f, "Sent through ntfy: ntfy took message abc on topic builds-k3x9q")
	f.server.SetText("")
	f.test(context.Background(), fake, f.table())
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

// Notification settings' Phone section shows config.toml's [phone] table
// and saves what a person changed through the station, which checks it
// like the file: Save writes the table (the keys the form does not show
// kept), a bad value is said in one sentence and nothing is saved, and
// Off removes the table.
func TestPhoneSettingsSave(t *testing.T) {
	fake := newFake()
	fake.phoneTable = map[string]any{"service": "ntfy", "url": "https://ntfy.example", "topic": "builds-old", "projects": []any{"web"}}
	u := newTestUI(t, fake, t0)
	u.apply(Snapshot{Connected: true})
	u.ShowDashboard()
	defer u.dash.hide()
	u.showSettings()
	dlg := u.dash.win.Canvas().Overlays().Top()
	if dlg == nil {
		t.Fatal("no Notifications dialog")
	}
	f := u.phone
	// The section's calls run on the UI's goroutines, which draw their
	// answers there too (the test driver's fyne.Do runs in place): the
	// test reads the widgets once they are done.
	answer := func() string { u.acts.Wait(); return f.answer.Text }
	u.acts.Wait()
	if f.topic.Text != "builds-old" {
		t.Fatalf("the form shows topic %q; want the station's", f.topic.Text)
	}
	if f.service.Selected != "ntfy" || f.server.Text != "https://ntfy.example" || !slices.Equal(f.kinds.Selected, []string{"permission", "question", "blocked", "station"}) || !f.shape.Disabled() {
		t.Errorf("the form shows service %q url %q kinds %q (shape on: %v)", f.service.Selected, f.server.Text, f.kinds.Selected, !f.shape.Disabled())
	}
	f.topic.SetText("")
	test.Type(f.topic, "builds-k3x9q")
	f.kinds.SetSelected([]string{"permission", "question", "blocked", "finished", "station"})
	test.Type(f.quiet, "23:00-07:00")
	f.quietKinds.SetSelected([]string{"permission"})
	test.Type(f.tokenEnv, "NTFY_TOKEN")
	test.Tap(findButton(t, dlg, "Save phone settings"))
	if got := answer(); !strings.HasPrefix(got, "Saved: notices go to ntfy (https://ntfy.example, topic builds-k3x9q).") {
		t.Errorf("the section says %q; want %q", got, "Saved: notices go to ntfy (https://ntfy.example, topic builds-k3x9q).")
	}
	want := map[string]any{"service": "ntfy", "url": "https://ntfy.example", "topic": "builds-k3x9q", "token_env": "NTFY_TOKEN", "projects": []any{"web"},
		"kinds": []any{"permission", "question", "blocked", "finished", "station"}, "quiet": "23:00-07:00", "quiet_kinds": []any{"permission"}}
	if got, _ := fake.PhoneSettings(context.Background()); !reflect.DeepEqual(got, want) {
		t.Errorf("saved %v\nwant %v", got, want)
	}

	f.quiet.SetText("")
	test.Type(f.quiet, "late")
	test.Tap(findButton(t, dlg, "Save phone settings"))
	if got := answer(); !strings.HasPrefix(got, `Not saved: phone.quiet: "late" is not a span of the day; write the hours as "HH:MM-HH:MM"`) {
		t.Errorf("the section says %q; want %q", got, `Not saved: phone.quiet: "late" is not a span of the day; write the hours as "HH:MM-HH:MM"`)
	}
	if got, _ := fake.PhoneSettings(context.Background()); !reflect.DeepEqual(got, want) {
		t.Errorf("a refused save changed the table: %v", got)
	}

	f.service.SetSelected("Off")
	if !f.server.Disabled() || !f.topic.Disabled() || !findButton(t, dlg, "Send a test notice").Disabled() {
		t.Error("Off leaves the service's fields on")
	}
	test.Tap(findButton(t, dlg, "Save phone settings"))
	if got := answer(); !strings.HasPrefix(got, "Saved: no notices go to a phone.") {
		t.Errorf("the section says %q; want %q", got, "Saved: no notices go to a phone.")
	}
	if got, _ := fake.PhoneSettings(context.Background()); got != nil {
		t.Errorf("Off saved %v; want no table", got)
	}
}
