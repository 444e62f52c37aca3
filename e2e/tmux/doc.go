// Package tmux holds the end-to-end tests of the tmux session backend: the
// real buildstation binary, its own tmux server, the scripted fake agent,
// a station killed with SIGKILL and started again. Unix only.
package tmux
