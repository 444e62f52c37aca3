//go:build linux

package notifier

import (
	"os"
	"path/filepath"
)

// DesktopSession reports whether this process runs in a desktop session a
// notification can reach: a display, and a session bus it can find without
// starting one (godbus would otherwise autolaunch a bus of its own on a
// headless box).
func DesktopSession() bool {
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return false
	}
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") != "" {
		return true
	}
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "bus")); err == nil {
			return true
		}
	}
	return false
}
