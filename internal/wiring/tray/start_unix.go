//go:build cgo && !windows

package tray

import (
	"os/exec"

	"github.com/buildstation/buildstation/platform/childproc"
)

// startStation runs "buildstation daemon" in its own session, so it
// outlives the tray and the terminal the tray was started from.
func startStation(self, home string) error {
	cmd := childproc.Command(self, "--home", home, "daemon")
	cmd.SysProcAttr.Setsid = true
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait() // reap it should it exit while the tray runs
	return nil
}

// childAttrs: the dashboard process stays in the tray's process group, so
// whatever ends the tray's group ends it too; it also ends by itself when
// the tray's end of its stdin closes.
func childAttrs(*exec.Cmd) {}
