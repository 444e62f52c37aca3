package daemon

import (
	"context"
	"path/filepath"

	"github.com/buildstation/buildstation/internal/phone"
	"github.com/buildstation/buildstation/platform/keychain"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
	"github.com/buildstation/buildstation/supervisor/outbox"
	"github.com/buildstation/buildstation/supervisor/station"
)

// phonePart is what the phone forwarder runs on: the station's outbox,
// which keeps each notice until the service took it.
type phonePart struct {
	box *outbox.Box
}

// openOutbox opens the home's outbox for the phone's notices: always,
// since a [phone] table saved from the dashboard takes effect without a
// restart.
func (p *phonePart) openOutbox(r *run, home string) error {
	box, err := outbox.Open(filepath.Join(home, outbox.File))
	if err != nil {
		return err
	}
	r.defer_(func() { box.Close() })
	p.box = box
	return nil
}

// phoneService makes the [phone] service with its token.
func phoneService(p config.Phone) (phone.Service, error) {
	tok, err := keychain.PhoneToken(p.TokenEnv)
	if err != nil {
		return nil, err
	}
	return phone.NewService(p, tok)
}

// forwardToPhone runs the phone forwarder on its own subscription until
// ctx ends; the returned func stops it and waits.
func forwardToPhone(ctx context.Context, o Options, st *station.Station, token string, ph *phonePart) func() {
	ctx, cancel := context.WithCancel(ctx)
	sub := st.Sessions.Subscribe(1024)
	done := make(chan struct{})
	go func() {
		defer close(done)
		phone.Run(ctx, sub.C, phone.Options{
			Config:       func() config.Phone { return st.Config().Phone },
			Service:      phoneService,
			StationToken: token,
			Decide: func(ctx context.Context, session, request, do, via string) error {
				// The request's id goes with the decision: the station
				// refuses it when another request waits by now.
				return st.Asks.Decide(ctx, session, supervisor.Decision{Behavior: do, Via: via, Request: request})
			},
			Health: st.Phone.ReportPhone,
			Ledger: ph.box,
			Log:    o.Log.With("part", "phone"),
		})
	}()
	return func() { cancel(); sub.Close(); <-done }
}
