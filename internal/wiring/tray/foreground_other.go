//go:build cgo && !windows && !darwin

package tray

// allowForeground: X11 and Wayland compositors decide focus themselves.
func allowForeground() {}

// activate: as allowForeground.
func activate() {}

// yieldTo: activation is macOS's cooperative kind only there.
func yieldTo(int) {}
