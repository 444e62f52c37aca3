//go:build !windows && !(darwin && cgo)

package desktop

// AllowForeground: X11 and Wayland compositors decide focus themselves.
func AllowForeground() {}

// Activate: as AllowForeground.
func Activate() {}

// YieldTo: activation is macOS's cooperative kind only there.
func YieldTo(int) {}

// installURLHandler: links arrive as arguments (`buildstation open URL`,
// from the link handler the installer writes); a build without cgo has no
// tray to hand them to.
func installURLHandler() {}
