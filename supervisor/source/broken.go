package source

import (
	"context"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// Broken is the tracker of a source that cannot run (no token, no
// keychain): every call fails with Err, so its state says why, and its
// writes wait in the outbox until it is fixed and the station restarted.
type Broken struct{ Err error }

func (b Broken) Poll(context.Context) ([]Item, bool, error) { return nil, false, b.Err }

func (b Broken) Item(context.Context, supervisor.External) (Item, error) { return Item{}, b.Err }

func (b Broken) Send(context.Context, Write) (Sent, error) { return Sent{}, b.Err }

func (b Broken) Activity(context.Context, supervisor.External, time.Time) (Activity, bool, error) {
	return Activity{}, false, b.Err
}

func (b Broken) Comments(context.Context, supervisor.External, time.Time) ([]Comment, error) {
	return nil, b.Err
}
