// Package terminalwindow opens a session in a window of the operating
// system's own terminal application where one can be scripted (not to be
// confused with app/terminal.go, the dashboard's terminal emulator): on macOS, Terminal.app attached to a tmux
// session's window (`buildstation session attach ID`, which attaches tmux
// itself). Elsewhere, and for sessions without tmux, the tray's own console
// view is used instead.
package terminalwindow
