package notifier

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// The notifier chooser: the notification center only from the .app, in a
// cgo build, and only when macOS allows it (or is still asking);
// terminal-notifier when installed (a click opens the session); else
// osascript, which says that a click opens nothing. Each choice says why.
func TestChooseDarwin(t *testing.T) {
	const tn = "/opt/homebrew/bin/terminal-notifier"
	const app = "dev.buildstation.app"
	for _, c := range []struct {
		name string
		f    darwinFacts
		want darwinBackend
		why  string
	}{
		{"the app, allowed", darwinFacts{NativeBuilt: true, BundleID: app, Auth: authGranted, TerminalNotifier: tn}, backendNative, "macOS allows them"},
		{"the app, asking", darwinFacts{NativeBuilt: true, BundleID: app, Auth: authPending}, backendNative, "macOS is asking you"},
		{"ad-hoc signed: refused", darwinFacts{NativeBuilt: true, BundleID: app, Auth: authDenied, AuthErr: "Notifications are not allowed for this application", TerminalNotifier: tn},
			backendTerminalNotifier, "macOS refused the notification center (Notifications are not allowed for this application; an ad-hoc-signed app is always refused); notices go through terminal-notifier (" + tn + "), and a click opens the session"},
		{"turned off by the person", darwinFacts{NativeBuilt: true, BundleID: app, Auth: authDenied}, backendPlain, "turned off in System Settings > Notifications; notices go through osascript"},
		{"no bundle", darwinFacts{NativeBuilt: true, TerminalNotifier: tn}, backendTerminalNotifier, "does not run from Build Station.app"},
		{"no cgo", darwinFacts{BundleID: app, TerminalNotifier: tn}, backendTerminalNotifier, "no cgo"},
		{"nothing but osascript", darwinFacts{NativeBuilt: true}, backendPlain, "a click opens nothing: brew install terminal-notifier"},
	} {
		got, why := chooseDarwin(c.f)
		if got != c.want || !strings.Contains(why, c.why) {
			t.Errorf("%s: chooseDarwin = %v %q, want %v saying %q", c.name, got, why, c.want, c.why)
		}
	}
}

// New waits for macOS's answer to the authorization request, and takes
// none within the wait as "still asking".
func TestNativeStateWait(t *testing.T) {
	var s nativeState
	if a, _ := s.wait(time.Millisecond); a != authPending {
		t.Errorf("no answer: %v, want pending", a)
	}
	s.authorized(false, "Notifications are not allowed for this application")
	if a, err := s.wait(time.Minute); a != authDenied || err == "" {
		t.Errorf("refused: %v %q", a, err)
	}
	var g nativeState
	go g.authorized(true, "")
	if a, _ := g.wait(time.Minute); a != authGranted {
		t.Errorf("granted: %v", a)
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

// A permission notice goes to the notification center under the category
// whose buttons are Allow once and Deny; a press reaches the same Decide
// the Linux buttons and the Windows links reach, for the notice's session.
// Any other notice with a session has Open; one without, no buttons. What
// a press carries is checked: an unknown action or a link naming no
// session decides nothing.
func TestNativeButtonsDecide(t *testing.T) {
	perm := newMessage(supervisor.Notice{Kind: supervisor.NoticePermission, SessionID: "t7.1", Title: "t7 asks",
		Ask: &supervisor.WaitingOn{ID: "a1", Kind: supervisor.AskPermission, Tool: "Bash", Input: "rm -rf node_modules"}})
	question := newMessage(supervisor.Notice{Kind: supervisor.NoticePermission, SessionID: "t7.1", Title: "t7 asks",
		Ask: &supervisor.WaitingOn{Kind: supervisor.AskQuestion, Tool: "AskUserQuestion", Input: "Which?", Options: []string{"allow", "deny"}}})
	block := newMessage(supervisor.Notice{Kind: supervisor.NoticeBlock, SessionID: "t7.1", Title: "blocked"})
	for m, want := range map[*message]string{&perm: categoryAsk, &question: categoryOpen, &block: categoryOpen, {Title: "x"}: ""} {
		if got := nativeCategory(*m); got != want {
			t.Errorf("category of %+v = %q, want %q", m, got, want)
		}
	}

	var logs strings.Builder
	type decision struct{ id, request, verb, answer string }
	got := make(chan decision, 4)
	var s nativeState
	s.start(Options{Log: slog.New(slog.NewTextHandler(&logs, nil)), Decide: func(id, request, verb, answer string) { got <- decision{id, request, verb, answer} }})
	// The press decides the request the session's last notice showed.
	s.showing("t7.1", perm)
	s.acted(perm.URL, "allow")
	s.acted(perm.URL, "deny")
	s.acted(perm.URL, "open")
	s.acted("buildstation://dashboard", "allow")
	s.acted("https://example.com/session/t7.1", "deny")
	// Each decision runs on its own goroutine: they may come in any order.
	seen := map[decision]bool{}
	for range 2 {
		select {
		case d := <-got:
			seen[d] = true
		case <-time.After(10 * time.Second):
			t.Fatalf("a press never reached Decide; decided %v", seen)
		}
	}
	if !seen[decision{"t7.1", "a1", "allow", ""}] || !seen[decision{"t7.1", "a1", "deny", ""}] {
		t.Errorf("decided %v, want allow and deny for t7.1", seen)
	}
	// The refusals are synchronous: logged before acted returns.
	if n := strings.Count(logs.String(), "nothing decided"); n != 3 {
		t.Errorf("%d refusals logged, want 3:\n%s", n, logs.String())
	}
}

// A finished notice goes to the notification center under the category
// whose buttons are View diff and Merge; a press reaches the same Land the
// Linux buttons and the Windows links reach, with the task the session's
// last notice finished. A press on a session with no finished notice, or
// an action of no category, lands nothing.
func TestNativeButtonsLand(t *testing.T) {
	finished := newMessage(supervisor.Notice{Kind: supervisor.NoticeFinished, SessionID: "t3.1", TaskID: "t3", Branch: "bs/x/t3", Title: "Finished: fix"})
	noBranch := newMessage(supervisor.Notice{Kind: supervisor.NoticeFinished, SessionID: "t4.1", TaskID: "t4", Title: "Finished: nothing to land"})
	for m, want := range map[*message]string{&finished: categoryFinished, &noBranch: categoryOpen} {
		if got := nativeCategory(*m); got != want {
			t.Errorf("category of %q = %q, want %q", m.Title, got, want)
		}
	}

	var logs strings.Builder
	got := make(chan string, 4)
	var s nativeState
	s.start(Options{Log: slog.New(slog.NewTextHandler(&logs, nil)),
		Land:   func(sessionID, taskID, verb string) { got <- verb + " " + taskID + " " + sessionID },
		Decide: func(id, request, verb, answer string) { got <- "decided " + verb }})
	s.showing("t3.1", finished)
	s.showing("t4.1", noBranch)
	s.acted(finished.URL, ActionDiff)
	s.acted(finished.URL, ActionMerge)
	s.acted(noBranch.URL, ActionMerge)
	s.acted(SessionURL("t9.1"), ActionMerge)
	seen := map[string]bool{}
	for range 2 {
		select {
		case g := <-got:
			seen[g] = true
		case <-time.After(10 * time.Second):
			t.Fatalf("a press never reached Land; landed %v", seen)
		}
	}
	if !seen["diff t3 t3.1"] || !seen["merge t3 t3.1"] {
		t.Errorf("landed %v, want diff and merge of t3 from t3.1", seen)
	}
	select {
	case g := <-got:
		t.Errorf("a press on a notice with nothing to land reached %q", g)
	case <-time.After(100 * time.Millisecond):
	}
	if n := strings.Count(logs.String(), "nothing landed"); n != 2 {
		t.Errorf("%d refusals logged, want 2:\n%s", n, logs.String())
	}
}
