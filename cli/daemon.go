package cli

import (
	"github.com/spf13/cobra"
)

// newDaemonCmd is `daemon`: the station in the foreground.
// main runs it (Deps.Roles).
func newDaemonCmd(e *env) *cobra.Command {
	return e.roleCmd("daemon [--home DIR]", "Run the station in the foreground",
		`Run the station in this terminal: the board, the scheduler, the sessions,
the watchdog and the local API. It logs to stderr and to logs/station.log in
the home. Ctrl-C stops it and says what happens to the running sessions
(pty sessions end and their tasks are blocked to be requeued; tmux sessions
live on and are adopted by the next station).`,
		"  buildstation daemon\n  buildstation daemon --home ~/bs-test", e.deps.Roles.Daemon)
}
