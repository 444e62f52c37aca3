package wiring

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/buildstation/buildstation/internal/deeplink"
	"github.com/buildstation/buildstation/supervisor/client"
	"github.com/buildstation/buildstation/supervisor/config"
)

// decideTimeout bounds the call a notice's button makes: the station
// answers a decision at once, or is not there.
const decideTimeout = 15 * time.Second

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
	fmt.Fprintf(stdout, "%s: %s\n", l.SessionID, l.Decided())
	return true
}
