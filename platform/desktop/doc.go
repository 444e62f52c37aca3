// Package desktop is the OS edge of the tray's windows: what the desktop
// lets them do. The same functions on every system, each file its own:
//
//   - AllowForeground: hand the right to come to the front on to the
//     process that answers next (Windows; elsewhere nothing);
//   - Activate and YieldTo: bring the dashboard process forward, and let
//     the tray hand it its activation (macOS 14's cooperative activation,
//     activation.go; elsewhere nothing);
//   - ReceiveLinks: the buildstation:// links the OS sends a running
//     program as events (macOS kAEGetURL), read by internal/deeplink;
//     elsewhere links arrive as arguments;
//   - DisplayProblem: whether a window can be shown at all (a display,
//     OpenGL 2.1), said in a sentence.
//
// internal/wiring/tray hands these to app/tray.
package desktop
