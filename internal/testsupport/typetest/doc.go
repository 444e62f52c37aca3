// Package typetest holds what the backends' tests type into a session to
// check that text arrives byte for byte: every printable ASCII character,
// UTF-8, and the ";" tmux once took for a command separator.
package typetest
