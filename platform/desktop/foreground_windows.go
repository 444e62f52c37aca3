package desktop

import "golang.org/x/sys/windows"

var procAllowSetForegroundWindow = windows.NewLazySystemDLL("user32.dll").NewProc("AllowSetForegroundWindow")

// AllowForeground lets whichever process answers next bring its window to
// the front. Windows lets only the process a person just clicked do that:
// the process a toast or a link started, or the tray on a menu click,
// passes the right on to the dashboard process (ASFW_ANY). It fails
// quietly when this process has no such right to pass on.
func AllowForeground() {
	const asfwAny = ^uint32(0)
	_, _, _ = procAllowSetForegroundWindow.Call(uintptr(asfwAny))
}

// Activate: the dashboard's own RequestFocus brings it forward, with the
// right AllowForeground passed on.
func Activate() {}

// YieldTo: AllowForeground already passed the right on.
func YieldTo(int) {}

// installURLHandler: links arrive as arguments (`buildstation open URL`,
// from the link handler the installer writes).
func installURLHandler() {}
