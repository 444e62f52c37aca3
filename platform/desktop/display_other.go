//go:build !cgo || darwin

package desktop

// DisplayProblem: a Mac always has a display and OpenGL 2.1. The check is
// left out there on purpose: GLFW's init runs NSApp until it has finished
// launching, after which the tray's own run loop (systray) would never
// hear that it launched, and its icon would never show. A build without
// cgo has no windows to check for.
func DisplayProblem() string { return "" }
