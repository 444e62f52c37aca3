package notify

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// The native center only from the .app (a bundle id) and only in a cgo
// build; terminal-notifier otherwise, when it is installed.
func TestPickDarwinBackend(t *testing.T) {
	for _, c := range []struct {
		built    bool
		bundleID string
		tn       string
		want     darwinBackend
	}{
		{true, "dev.buildstation.app", "/opt/homebrew/bin/terminal-notifier", backendNative},
		{true, "dev.buildstation.app", "", backendNative},
		{true, "", "/opt/homebrew/bin/terminal-notifier", backendTerminalNotifier},
		{false, "dev.buildstation.app", "/opt/homebrew/bin/terminal-notifier", backendTerminalNotifier},
		{false, "dev.buildstation.app", "", backendPlain},
		{true, "", "", backendPlain},
	} {
		if got := pickDarwinBackend(c.built, c.bundleID, c.tn); got != c.want {
			t.Errorf("pickDarwinBackend(%v, %q, %q) = %v, want %v", c.built, c.bundleID, c.tn, got, c.want)
		}
	}
}

// A click on a native notice hands back the link newMessage put in its
// userInfo; the session comes back out of it. A link that names no
// session, or an id no session has, opens nothing.
func TestClickedSessionRoundTrip(t *testing.T) {
	for _, id := range []string{"t3.1", "t3.2.review", "s-42_x"} {
		m := newMessage(supervisor.Notice{Kind: "blocked", SessionID: id, Title: "x"})
		if got, ok := clickedSession(m.URL); !ok || got != id {
			t.Errorf("clickedSession(%q) = %q, %v; want %q", m.URL, got, ok, id)
		}
	}
	for _, bad := range []string{"", "https://example.com/session/x", "not a link", "buildstation://dashboard",
		SessionURL("a b/../c?d#e"), SessionURL("..")} {
		if got, ok := clickedSession(bad); ok {
			t.Errorf("clickedSession(%q) = %q, true; want no session", bad, got)
		}
	}
}

// A click on a native notice reaches the same Open callback the other OSes
// use, with the session's id; a link naming none reaches nothing and is
// logged. A refusal of authorization is logged with what to do.
func TestNativeClickAndAuthorization(t *testing.T) {
	var logs strings.Builder
	opened := make(chan string, 1)
	var s nativeState
	first := s.start(Options{Open: func(id string) { opened <- id }, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if !first || s.start(Options{Open: func(id string) { opened <- id }, Log: slog.New(slog.NewTextHandler(&logs, nil))}) {
		t.Fatal("start must report the first call only (authorization is asked once)")
	}
	s.clicked(SessionURL("t7.2"))
	select {
	case id := <-opened:
		if id != "t7.2" {
			t.Fatalf("Open(%q), want t7.2", id)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a click never reached Open")
	}
	s.clicked("buildstation://session/..")
	s.authorized(false, "")
	s.failed("buildstation-block-t7.2", "Notifications are not allowed for this application")
	for _, want := range []string{"names no session", "System Settings > Notifications > Build Station", "did not show a notification"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, logs.String())
		}
	}
	select {
	case id := <-opened:
		t.Fatalf("a bad link opened %q", id)
	default:
	}
	var quiet nativeState // no Log: nothing to say, and no panic
	quiet.authorized(true, "")
	quiet.clicked("")
}
