// Package app is the Fyne UI of the tray role: the tray icon and menu, the
// dashboard, the console windows and the notifications. It is a client of
// the station's API and nothing more: it talks through Client, which
// *client.Client (supervisor/client) satisfies, and the OS parts it needs
// (a desktop notifier) are handed in by the wiring (internal/wiring/tray). It
// never imports fyne.io/fyne/v2/app (the wiring makes the fyne.App), the
// engine, os/exec or a pty.
//
// Threading: every Fyne object here is touched on Fyne's goroutine only.
// The connection goroutine (conn.go) owns the station's state as it
// streams in and hands snapshots over with fyne.Do.
package app
