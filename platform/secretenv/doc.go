// Package secretenv keeps the secrets a station reads from its own
// environment — a source's or the [phone] table's token_env, PostgreSQL's
// password variables — out of every process it starts.
//
// Removing them from a session's environment alone is not enough: a gate
// or a setup runs the agent's code with the station's environment, and so
// do git and its hooks, the tmux server and a [hooks] command. Take moves
// the named variables out of the process's environment into memory, once
// the station has read what it needs at start (the board's password), and
// Getenv reads them from there. On Linux, Take also blanks their values in
// the block the process was started with, which /proc/<pid>/environ shows
// to the station's own agents (its children, running as the same user).
package secretenv
