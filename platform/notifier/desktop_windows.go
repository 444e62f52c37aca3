//go:build windows

package notifier

import (
	"os"

	"golang.org/x/sys/windows"
)

// DesktopSession reports whether this process runs in a user's session:
// services run in session 0, where no toast is ever seen.
func DesktopSession() bool {
	var id uint32
	if err := windows.ProcessIdToSessionId(uint32(os.Getpid()), &id); err != nil {
		return false
	}
	return id != 0
}
