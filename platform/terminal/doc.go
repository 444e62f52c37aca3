// Package terminal opens a session in the operating system's own terminal
// where one can be scripted: on macOS, Terminal.app attached to a tmux
// session's window (`buildstation session attach ID`, which attaches tmux
// itself). Elsewhere, and for sessions without tmux, the tray's own console
// view is used instead.
package terminal
