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
//
// A command is one file, named for it: `task accept` is task_accept.go,
// `status` is status.go (the shape of gh's pkg/cmd/pr/close/close.go). The
// file holds the command's options struct (the invocation's *env, then
// what the command line says), its constructor newTaskAcceptCmd(e, runF),
// which fills the options from the flags and the arguments, and its run
// function taskAcceptRun(opts). A test hands the constructor a runF to see
// the options a command line makes, with no station and no terminal
// (command_test.go). A command that is one API verb is a few lines through
// ask and tell (command.go). The file registers the command in its group
// (func init, subcommand in groups.go), so a new command is one file.
package cli
