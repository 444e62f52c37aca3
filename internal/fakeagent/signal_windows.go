//go:build windows

package fakeagent

import (
	"os"
	"os/signal"
	"syscall"
)

// ignoreTerm makes this process survive the console's polite stops, so the
// station has to end it through its job object. Go maps CTRL_CLOSE_EVENT
// (the pseudo console closing) to SIGTERM and Ctrl-C/Ctrl-Break to
// os.Interrupt.
func ignoreTerm() {
	signal.Ignore(syscall.SIGTERM, os.Interrupt)
}
