package fakeagent

import (
	"context"
	"errors"
	"sync/atomic"
	"time"
)

// sleep waits for d or until ctx is cancelled.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// every calls f each period for total (or forever), then waits out the rest
// of total so the step lasts exactly as long as the script said.
func every(ctx context.Context, period, total time.Duration, forever bool, f func(n int)) error {
	tick := time.NewTicker(period)
	defer tick.Stop()
	var end <-chan time.Time
	if !forever {
		t := time.NewTimer(total)
		defer t.Stop()
		end = t.C
	}
	for n := 1; ; n++ {
		select {
		case <-tick.C:
			f(n)
		case <-end:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// heartbeat is the healthy chatty agent: console output and nothing else.
func (r *runner) heartbeat(ctx context.Context, s Step) error {
	return every(ctx, s.Every, s.For, s.Forever, func(n int) {
		r.printf("heartbeat %d", n)
	})
}

var errNoReporter = errors.New("no station to report to")

// report calls the Reporter for progress, status, complete and block. It
// prints the call first so a console shows what the agent claimed even when
// the station refused it.
func (r *runner) report(ctx context.Context, s Step) {
	r.printf("%s: %s", s.Verb, s.Text)
	err := errNoReporter
	if rep := r.env.Reporter; rep != nil {
		switch s.Verb {
		case "progress":
			err = rep.Progress(ctx, s.Text)
		case "status":
			err = rep.Status(ctx, s.Text)
		case "complete":
			err = rep.Complete(ctx, s.Text)
		case "block":
			err = rep.Block(ctx, s.Text)
		}
	}
	if err != nil {
		r.errorf("%s failed: %v", s.Verb, err)
	}
}

// spinSink keeps the busy loop's result alive so the compiler cannot drop it.
var spinSink atomic.Uint64

// spin burns CPU in this process for d: the "silent native build" whose only
// sign of life is CPU time. It reads the clock only every ~1M iterations so
// the loop stays CPU-bound rather than clock-bound.
func spin(ctx context.Context, d time.Duration) error {
	deadline := time.Now().Add(d)
	x := uint64(88172645463325252)
	for {
		for range 1 << 20 {
			// xorshift: cheap work the compiler cannot fold away.
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
		}
		spinSink.Add(x)
		if err := ctx.Err(); err != nil {
			return err
		}
		if !time.Now().Before(deadline) {
			return nil
		}
	}
}
