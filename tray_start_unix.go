//go:build cgo && !windows

package main

import (
	"os/exec"
	"syscall"
)

// startStation runs "buildstation daemon" in its own session, so it
// outlives the tray and the terminal the tray was started from.
func startStation(self, home string) error {
	cmd := exec.Command(self, "--home", home, "daemon")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait() // reap it should it exit while the tray runs
	return nil
}
