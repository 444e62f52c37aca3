//go:build !windows

package wiring

import "github.com/buildstation/buildstation/platform/childproc"

// startDetached starts exe with args in its own session, so that it
// outlives this process.
func startDetached(exe string, args ...string) error {
	cmd := childproc.Command(exe, args...)
	cmd.SysProcAttr.Setsid = true
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
