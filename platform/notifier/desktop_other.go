//go:build !linux && !windows

package notifier

import "os"

// DesktopSession reports whether notifications can reach a person: on macOS
// a process started over SSH is outside the user's GUI session; otherwise
// (a LaunchAgent, a Terminal) it is inside it.
func DesktopSession() bool {
	return os.Getenv("SSH_CONNECTION") == "" && os.Getenv("SSH_TTY") == ""
}
