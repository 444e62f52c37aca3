// Package tmux runs agent sessions as windows of the station's own tmux
// server (`tmux -S <home>/tmux.sock`), so that a session outlives a station
// crash or restart and a person can attach to it with tmux itself. It
// implements supervisor.Adopter: Spawn starts a window, Adopt finds one
// again by the handle Spawn's Proc gave.
//
// Output is tapped with pipe-pane, whose command (this program again, see
// HandOff) hands tmux's end of the pipe to the station over a unix socket
// and exits: the Proc reads the pane's output straight from tmux, as the
// agent writes it, with no copier process between them and no file
// polled. Input goes through send-keys. Each window keeps its pane after the agent exits
// (remain-on-exit) so the exit status can be read. The server's global
// pane-died hook unlocks one wait-for channel that one parked client per
// spawner asks for, and one control-mode client (tmux -C, its output off)
// reports every closed window and carries the station's commands, so Wait
// learns of an exit without a poll, a subscription or a parked client per
// session (see monitor). Windows keep historyLimit lines of scrollback:
// the station keeps the output itself. Stop ends
// the pane's process group and the rest of its tree (package proctree), as
// package pty does, then kills the window.
//
// tmux is unix-only: on Windows, Spawn and Adopt report that it is missing.
package tmux
