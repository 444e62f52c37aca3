//go:build cgo && windows

package tray

import (
	"os/exec"

	"github.com/buildstation/buildstation/platform/childproc"
)

// Process creation flags (winbase.h).
const (
	createNewProcessGroup  = 0x00000200
	detachedProcess        = 0x00000008
	createBreakawayFromJob = 0x01000000
)

// startStation runs "buildstation daemon" detached from the tray's
// console, so it outlives the tray, and out of the tray's job object when
// the tray runs in one (a terminal, an IDE or a launcher that ends its job
// would end the station with it). A job that forbids breaking away refuses
// the flag: then the station starts inside it.
func startStation(self, home string) error {
	flags := uint32(createNewProcessGroup | detachedProcess)
	cmd := childproc.Command(self, "--home", home, "daemon")
	cmd.SysProcAttr.CreationFlags |= flags | createBreakawayFromJob
	cmd.SysProcAttr.HideWindow = true
	err := cmd.Start()
	if err != nil {
		cmd = childproc.Command(self, "--home", home, "daemon")
		cmd.SysProcAttr.CreationFlags |= flags
		cmd.SysProcAttr.HideWindow = true
		err = cmd.Start()
	}
	if err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}

// childAttrs: childproc already starts the dashboard process without a
// console window of its own (the flag is ignored for buildstationw.exe, a
// GUI program). Not HideWindow: that would hide the dashboard's first
// window too.
func childAttrs(*exec.Cmd) {}
