// Package treekill ends an agent's whole process tree: a polite signal, a
// grace period, then a kill of every process left. Both session backends
// (pty and tmux) end their agents through it, so "nothing survives a block"
// holds the same way for each.
package treekill
