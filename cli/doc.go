// Package cli is the buildstation command line for scripts and people, on
// cobra: the task, session, project, status, board and agent verbs of the
// contract (docs/contract.md), with help, examples and shell completion for
// every command. It is a pure client of the station's API (supervisor/api);
// the roles that need the OS edges (daemon, demo, service, open) are
// described here and run by main through Roles.
package cli
