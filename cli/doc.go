// Package cli is the buildstation command line for scripts and people, on
// cobra: the task, session, project, status, board and agent verbs of the
// contract (docs/contract.md), with help, examples and shell completion for
// every command. It is a pure client of the station's API
// (supervisor/client). What needs the OS edges or a board's store is
// described here and run through the one Deps main hands to Run: Roles
// (daemon, demo, service, open), TmuxAttach (session attach of a tmux
// session, with tmux itself), Boards (the board verbs, which work with no
// station running), Agents and Keychain. No package variable is set from
// outside.
package cli
