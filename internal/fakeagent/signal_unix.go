//go:build unix

package fakeagent

import (
	"os/signal"
	"syscall"
)

// ignoreTerm makes this process survive every polite way to end it, so the
// station's kill escalation (signal, grace, kill the tree) has to reach the
// kill. SIGHUP and SIGINT count as polite too: closing a PTY sends SIGHUP.
func ignoreTerm() {
	signal.Ignore(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
}
