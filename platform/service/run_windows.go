package service

import (
	"context"
	"sync"
	"time"

	"golang.org/x/sys/windows/svc"
)

// RunStation runs the station under the Service Control Manager: it answers
// start and stop (a stop cancels ctx) within the SCM's time limits, which a
// plain program does not (error 1053). A stop is reported pending for up
// to wait (StopWait of stop_grace), with a moving checkpoint, while the
// station drains; the station ending on its own (a bad config, say) stops
// the service with its error. From a terminal it just runs it.
func RunStation(ctx context.Context, wait time.Duration, run func(context.Context) error) error {
	inService, err := svc.IsWindowsService()
	if err != nil || !inService {
		return run(ctx)
	}
	h := &handler{run: run, parent: ctx, wait: wait}
	if err := svc.Run(Name, h); err != nil {
		return err
	}
	return h.err
}

// handler is the station's side of the SCM's conversation.
type handler struct {
	run    func(context.Context) error
	parent context.Context
	wait   time.Duration
	err    error // the station's, once it ended
}

func (h *handler) Execute(_ []string, reqs <-chan svc.ChangeRequest, status chan<- svc.Status) (bool, uint32) {
	status <- svc.Status{State: svc.StartPending}
	ctx, cancel := context.WithCancel(h.parent)
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.err = h.run(ctx)
	}()
	running := svc.Status{State: svc.Running, Accepts: svc.AcceptStop | svc.AcceptShutdown}
	status <- running
	for {
		select {
		case <-done:
			status <- svc.Status{State: svc.StopPending}
			if h.err != nil {
				return true, 1 // service-specific: the station failed
			}
			return false, 0
		case r := <-reqs:
			switch r.Cmd {
			case svc.Interrogate:
				status <- r.CurrentStatus
			case svc.Stop, svc.Shutdown:
				cancel()
				h.stopping(reqs, status, done)
				return false, 0
			default:
				status <- running
			}
		}
	}
}

// stopping reports the pending stop while the station drains, answering
// the SCM's interrogations meanwhile: a control left unread would hold up
// the SCM's dispatcher.
func (h *handler) stopping(reqs <-chan svc.ChangeRequest, status chan<- svc.Status, done <-chan struct{}) {
	over := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-over:
				return
			case r := <-reqs:
				if r.Cmd == svc.Interrogate {
					status <- r.CurrentStatus
				}
			}
		}
	}()
	stopPending(h.wait, done, func(checkpoint uint32, hint time.Duration) {
		status <- svc.Status{State: svc.StopPending, CheckPoint: checkpoint, WaitHint: uint32(hint / time.Millisecond)}
	})
	close(over)
	wg.Wait()
}
