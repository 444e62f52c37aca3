package wiring

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/buildstation/buildstation/internal/deeplink"
	"github.com/buildstation/buildstation/platform/instance"
	"github.com/buildstation/buildstation/supervisor/client"
	"github.com/buildstation/buildstation/supervisor/config"
)

// decideTimeout bounds the call a notice's button makes: the station
// answers a decision at once, or is not there.
const decideTimeout = 15 * time.Second

// decideFromLink makes l's decision as the person who pressed the button:
// with the station's token, from outside any session, as "session allow"
// (deny, answer) or "task merge" would. A finished notice's Merge goes to
// the running tray when one answers (handed true): it merges as its own
// notice's Merge does on Linux, says where the work went in a notice and
// shows a conflict over the dashboard; with no tray the merge is made here.
func decideFromLink(ctx context.Context, homeFlag string, l deeplink.Link) (handed bool, err error) {
	home, err := config.Home(homeFlag)
	if err != nil {
		return false, err
	}
	c, err := client.Dial(home)
	if err != nil {
		return false, err
	}
	// Any web page or program can open a buildstation:// link; only the
	// station's own notice knows the key of its token.
	if !l.KeyHolds(c.Token) {
		return false, fmt.Errorf("the link does not carry this station's key, so it did not come from its notice and decides nothing; decide in the console")
	}
	ctx, cancel := context.WithTimeout(ctx, decideTimeout)
	defer cancel()
	switch l.Verb {
	case "allow":
		return false, c.Allow(ctx, l.SessionID, l.Request, "")
	case "deny":
		return false, c.Deny(ctx, l.SessionID, l.Request, "")
	case deeplink.VerbMerge:
		if instance.Send(home, instance.Request{Open: l.SessionID, Task: l.Task, Do: deeplink.VerbMerge}) == nil {
			return true, nil
		}
		_, err := c.Merge(ctx, l.Task, "")
		return false, err
	case "answer":
		return false, c.Answer(ctx, l.SessionID, l.Request, l.Answer)
	}
	return false, fmt.Errorf("the link's %q is no decision", l.Verb)
}

// openLink is "buildstation open" for a notice's button: the decision made,
// true when it was; when it could not be (the request was answered already,
// or the station is gone), stderr says why and the caller opens the
// session's console instead, so the person sees where it stands.
func openLink(ctx context.Context, homeFlag string, l deeplink.Link, stdout, stderr io.Writer) bool {
	handed, err := decideFromLink(ctx, homeFlag, l)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "buildstation: the notice's %s did not reach session %s (%v); opening its console instead\n", l.Verb, l.SessionID, err)
		return false
	case handed:
		fmt.Fprintf(stdout, "%s: the tray merges it\n", l.Task)
	case l.Verb == deeplink.VerbMerge:
		fmt.Fprintf(stdout, "%s: %s\n", l.Task, l.Decided())
	default:
		fmt.Fprintf(stdout, "%s: %s\n", l.SessionID, l.Decided())
	}
	return true
}
