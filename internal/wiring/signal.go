package wiring

import (
	"os"
	"os/signal"
	"syscall"
)

// secondSignal is closed at the second Ctrl-C (or SIGTERM): the first one
// asked the station to drain (main's context), the second to stop now.
func secondSignal() <-chan struct{} {
	now := make(chan struct{})
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ch
		<-ch
		signal.Stop(ch)
		close(now)
	}()
	return now
}
