package wiring

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/buildstation/buildstation/internal/deeplink"
	"github.com/buildstation/buildstation/supervisor/client"
	"github.com/buildstation/buildstation/supervisor/config"
)

// decideTimeout bounds the call a notice's button makes: the station
// answers a decision at once, or is not there.
const decideTimeout = 15 * time.Second

// linkDecision is the decision a notice's button carries when "buildstation
// open" is handed its link (a Windows toast's Allow once or Deny:
// buildstation://session/ID?do=allow), read by the same parser as every
// other link. decide is false for anything else; bad is true for a
// buildstation: link the parser refuses, which nothing may act on.
func linkDecision(args []string) (l deeplink.Link, decide, bad bool) {
	if len(args) != 1 || !strings.HasPrefix(strings.ToLower(strings.TrimSpace(args[0])), deeplink.Scheme+":") {
		return deeplink.Link{}, false, false
	}
	l, ok := deeplink.ParseLink(args[0])
	return l, ok && l.Verb != "", !ok
}

// decideFromLink makes l's decision as the person who pressed the button:
// with the station's token, from outside any session, as "session allow"
// (deny, answer) would.
func decideFromLink(ctx context.Context, homeFlag string, l deeplink.Link) error {
	home, err := config.Home(homeFlag)
	if err != nil {
		return err
	}
	c, err := client.Dial(home)
	if err != nil {
		return err
	}
	// Any web page or program can open a buildstation:// link; only the
	// station's own notice knows the key of its token.
	if !l.KeyHolds(c.Token) {
		return fmt.Errorf("the link does not carry this station's key, so it did not come from its notice and decides nothing; decide in the console")
	}
	ctx, cancel := context.WithTimeout(ctx, decideTimeout)
	defer cancel()
	switch l.Verb {
	case "allow":
		return c.Allow(ctx, l.SessionID, l.Request, "")
	case "deny":
		return c.Deny(ctx, l.SessionID, l.Request, "")
	}
	return c.Answer(ctx, l.SessionID, l.Request, l.Answer)
}

// openLink is "buildstation open" for a notice's button: the decision made,
// true when it was; when it could not be (the request was answered already,
// or the station is gone), stderr says why and the caller opens the
// session's console instead, so the person sees where it stands.
func openLink(ctx context.Context, homeFlag string, l deeplink.Link, stdout, stderr io.Writer) bool {
	if err := decideFromLink(ctx, homeFlag, l); err != nil {
		fmt.Fprintf(stderr, "buildstation: the notice's %s did not reach session %s (%v); opening its console instead\n", l.Verb, l.SessionID, err)
		return false
	}
	fmt.Fprintf(stdout, "%s: %s\n", l.SessionID, decided(l))
	return true
}

// decided says what a link's decision did, for its output.
func decided(l deeplink.Link) string {
	switch l.Verb {
	case "allow":
		return "allowed once"
	case "deny":
		return "denied"
	}
	return "answered " + l.Answer
}
