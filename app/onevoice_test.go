package app

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/buildstation/buildstation/supervisor"
)

// The card speaks as the notice does: a session that asks shows Allow once
// as its primary action and Deny… beside it (not hidden in its menu), each
// bound to the request shown; Deny… takes an optional note for the agent.
func TestAskingCardSaysAllowOnceAndDeny(t *testing.T) {
	fake := newFake()
	d := openFullBoard(t, fake)
	s := fullBoard(t0)
	s.Sessions[len(s.Sessions)-1].WaitingOn.ID = "r7"
	d.u.apply(s)
	card := cardOf(t, d, "t6")
	if got := primaryOf(card); got != "Allow once" {
		t.Errorf("the asking card's primary action is %q, want Allow once (the notice's words)", got)
	}
	deny := buttonIn(card, "Deny…")
	if deny == nil || !deny.Visible() {
		t.Fatalf("the asking card shows no Deny… beside Allow once: %q", texts(card))
	}
	test.Tap(deny)
	note := entryIn(t, d.win.Canvas().Overlays().Top())
	test.Type(note, "use make release")
	test.Tap(findButton(t, d.win.Canvas().Overlays().Top(), "Deny"))
	if got := nextCall(t, fake); got != (call{"Deny", "t6.1", "request=r7 use make release"}) {
		t.Errorf("Deny… called %+v", got)
	}
	test.Tap(findButton(t, cardOf(t, d, "t6"), "Allow once"))
	if got := nextCall(t, fake); got != (call{"Allow", "t6.1", "request=r7"}) {
		t.Errorf("Allow once called %+v", got)
	}
}

// The console window carries Allow once and Deny… while its session's
// request waits, bound to that request, and drops them when it is decided.
// The test reads only the console's request row: the console's own
// goroutines paint its status line and screen meanwhile (under the test
// driver fyne.Do runs on theirs), and a walk of the whole window would race
// with them.
func TestConsoleCarriesAllowAndDeny(t *testing.T) {
	fake := newFake()
	u := newTestUI(t, fake, t0)
	s := fullBoard(t0)
	s.Sessions[len(s.Sessions)-1].WaitingOn.ID = "r7"
	u.apply(s)
	u.OpenConsole("t6.1")
	c := u.consoles["t6.1"]
	defer c.win.Close()
	allow := buttonIn(c.asks, "Allow once")
	if allow == nil || !c.asks.Visible() || buttonIn(c.asks, "Deny…") == nil {
		t.Fatalf("the console of a session that asks offers: %q", texts(c.asks))
	}
	if c.nudge.Visible() {
		t.Error("the console of a session that asks offers Nudge now")
	}
	if all := texts(c.asks); !slices.ContainsFunc(all, func(s string) bool { return s == "Asks you: Bash: npm publish --tag next" }) {
		t.Errorf("the console does not say what is asked: %q", all)
	}
	allow.OnTapped()
	if got := nextCall(t, fake); got != (call{"Allow", "t6.1", "request=r7"}) {
		t.Errorf("the console's Allow once called %+v", got)
	}
	s.Sessions[len(s.Sessions)-1].WaitingOn = nil
	s.Sessions[len(s.Sessions)-1].State = supervisor.SessWorking
	u.apply(s)
	if c.asks.Visible() && buttonIn(c.asks, "Allow once") != nil {
		t.Error("the console still offers Allow once after the request was decided")
	}
	if !c.nudge.Visible() {
		t.Error("the console of a working session offers no Nudge now once the request is decided")
	}
}
