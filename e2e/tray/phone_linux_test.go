//go:build linux && cgo

package tray_test

import (
	"encoding/json"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
	"github.com/buildstation/buildstation/internal/testsupport/standin/ntfyapi"
	"github.com/buildstation/buildstation/supervisor"
)

// The phone's service (a stand-in ntfy) refuses a permission's notice with
// 503: the tray's menu, read over D-Bus as a desktop's tray host reads it,
// has the one line "Phone: 127.0.0.1:… not answering since HH:MM —
// retrying", and `status` says the same line once (its --json has phone.ok
// false). When the service answers again the retry sends the notice and
// the line goes from both.
func TestTrayShowsPhoneNotAnswering(t *testing.T) {
	ntfy := ntfyapi.New(t)
	ntfy.Fail(1000, http.StatusServiceUnavailable)
	display := startXvfb(t)
	bus := privateBus(t)
	w := newWatcher(t, bus)
	script := rig.AskingAgent(t, "make release", "")
	home := rig.WriteConfig(t, rig.PhoneTOML(t, "web", script, "60s", "120s", ntfy.URL, "tray-e2e"))
	s := rig.StartOn(t, home)
	out := startTray(t, home, display, bus, "--hidden")
	it := w.waitItem(t, 60*time.Second, out)
	host := strings.TrimPrefix(ntfy.URL, "http://")
	s.AddTask("web", "release", "")

	phoneLines := func(v view) []string {
		var got []string
		for _, l := range v.Menu {
			if strings.Contains(strings.ToLower(l), "phone") {
				got = append(got, l)
			}
		}
		return got
	}
	line := regexp.MustCompile(`^Phone: ` + regexp.QuoteMeta(host) + ` not answering since (\d\d:\d\d) — retrying$`)
	down := w.waitView(t, it, 60*time.Second, "the phone's line", func(v view) bool {
		got := phoneLines(v)
		return len(got) == 1 && line.MatchString(got[0])
	})
	t.Logf("the tray's menu while the service refuses: %q", down.Menu)
	status := s.Must("status")
	var statusLines []string
	for _, l := range strings.Split(status, "\n") {
		if strings.Contains(strings.ToLower(l), "phone") {
			statusLines = append(statusLines, l)
		}
	}
	if len(statusLines) != 1 || statusLines[0] != phoneLines(down)[0] {
		t.Errorf("status says %q; want once the tray's line %q", statusLines, phoneLines(down)[0])
	}
	var st supervisor.Status
	if err := json.Unmarshal([]byte(s.Must("status", "--json")), &st); err != nil {
		t.Fatal(err)
	}
	if st.Phone == nil || st.Phone.OK || st.Phone.Service != "ntfy" || st.Phone.Host != host || st.Phone.Since.IsZero() || !strings.Contains(st.Phone.Error, "503") {
		t.Errorf("status --json phone = %+v", st.Phone)
	}

	ntfy.Fail(0, 0)
	w.waitView(t, it, 60*time.Second, "the phone's line gone", func(v view) bool {
		return len(v.Menu) > 0 && len(phoneLines(v)) == 0
	})
	rig.Eventually(t, 10*time.Second, func() bool {
		for _, m := range ntfy.Messages("tray-e2e") {
			if strings.Contains(m.Message, "make release") {
				return true
			}
		}
		return false
	}, "the kept notice sent once the service answers")
	if status := s.Must("status"); strings.Contains(strings.ToLower(status), "phone") {
		t.Errorf("status still names the phone once it answers:\n%s", status)
	}
	if err := json.Unmarshal([]byte(s.Must("status", "--json")), &st); err != nil || st.Phone == nil || !st.Phone.OK {
		t.Errorf("status --json phone once it answers = %+v (%v)", st.Phone, err)
	}
}

// writeExec writes an executable script.
func writeExec(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
}
