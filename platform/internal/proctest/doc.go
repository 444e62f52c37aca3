// Package proctest holds what the tests of the session backends (pty,
// tmux) and of treekill share: reading an agent's output as the session
// reader does, waiting for its exit, watching its process tree, and the
// checks of the contract both backends keep (contract_unix.go). Every
// wait is bounded by Deadline, so a broken backend fails its test instead
// of hanging the run.
package proctest
