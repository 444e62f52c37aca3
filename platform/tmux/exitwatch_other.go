//go:build unix && !linux

package tmux

// exitWatchable is false: this system has no pidfd, and the monitor's look
// at every pane now and then is what settles an exit tmux left unreaped.
const exitWatchable = false

func watchExit(int, func()) (stop func(), ok bool) { return nil, false }
