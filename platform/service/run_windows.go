package service

import (
	"context"
	"time"

	ks "github.com/kardianos/service"
)

// stopWait bounds how long the Service Control Manager's stop waits for
// the station to end its sessions.
const stopWait = 25 * time.Second

// RunStation runs the station under the Service Control Manager: it answers
// start and stop (a stop cancels ctx) within the SCM's time limits, which a
// plain program does not (error 1053). From a terminal it just runs it.
func RunStation(ctx context.Context, run func(context.Context) error) error {
	if ks.Interactive() {
		return run(ctx)
	}
	p := &program{run: run, parent: ctx, done: make(chan struct{})}
	svc, err := ks.New(p, &ks.Config{Name: Name})
	if err != nil {
		return err
	}
	if err := svc.Run(); err != nil {
		return err
	}
	return p.err
}

type program struct {
	run    func(context.Context) error
	parent context.Context
	cancel context.CancelFunc
	done   chan struct{}
	err    error
}

func (p *program) Start(s ks.Service) error {
	ctx, cancel := context.WithCancel(p.parent)
	p.cancel = cancel
	go func() {
		defer close(p.done)
		p.err = p.run(ctx)
		if ctx.Err() == nil {
			// The station ended on its own (a bad config, say): stop the
			// service, and RunStation returns the station's error.
			_ = s.Stop()
		}
	}()
	return nil
}

func (p *program) Stop(ks.Service) error {
	p.cancel()
	select {
	case <-p.done:
	case <-time.After(stopWait):
	}
	return nil
}
