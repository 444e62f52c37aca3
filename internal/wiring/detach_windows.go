//go:build windows

package wiring

import "github.com/buildstation/buildstation/platform/childproc"

// Process creation flags (winbase.h).
const (
	createNewProcessGroup  = 0x00000200
	detachedProcess        = 0x00000008
	createBreakawayFromJob = 0x01000000
)

// startDetached starts exe with args so that it outlives this process and
// the job it runs in (an installer's custom action), when the job allows.
func startDetached(exe string, args ...string) error {
	flags := uint32(createNewProcessGroup | detachedProcess)
	cmd := childproc.Command(exe, args...)
	cmd.SysProcAttr.CreationFlags |= flags | createBreakawayFromJob
	err := cmd.Start()
	if err != nil {
		cmd = childproc.Command(exe, args...)
		cmd.SysProcAttr.CreationFlags |= flags
		err = cmd.Start()
	}
	if err != nil {
		return err
	}
	return cmd.Process.Release()
}
