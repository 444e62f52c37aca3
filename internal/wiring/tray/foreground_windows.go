//go:build cgo && windows

package tray

import "golang.org/x/sys/windows"

var procAllowSetForegroundWindow = windows.NewLazySystemDLL("user32.dll").NewProc("AllowSetForegroundWindow")

// allowForeground lets whichever process answers next bring its window to
// the front. Windows lets only the process a person just clicked do that:
// the process a toast or a link started, or the tray on a menu click,
// passes the right on to the dashboard process (ASFW_ANY). It fails
// quietly when this process has no such right to pass on.
func allowForeground() {
	const asfwAny = ^uint32(0)
	_, _, _ = procAllowSetForegroundWindow.Call(uintptr(asfwAny))
}

// activate: the dashboard's own RequestFocus brings it forward, with the
// right allowForeground passed on.
func activate() {}

// yieldTo: allowForeground already passed the right on.
func yieldTo(int) {}
