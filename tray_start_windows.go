//go:build cgo && windows

package main

import (
	"os/exec"
	"syscall"
)

// Process creation flags (winbase.h).
const (
	createNewProcessGroup = 0x00000200
	detachedProcess       = 0x00000008
)

// startStation runs "buildstation daemon" detached from the tray's
// console, so it outlives the tray.
func startStation(self, home string) error {
	cmd := exec.Command(self, "--home", home, "daemon")
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: createNewProcessGroup | detachedProcess, HideWindow: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}
