package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
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
