package cli

import (
	"github.com/spf13/cobra"
)

// newDemoCmd is `demo`: the whole lifecycle with scripted agents.
// main runs it (Deps.Roles).
func newDemoCmd(e *env) *cobra.Command {
	return e.roleCmd("demo [--headless [--keep]]", "The whole lifecycle in a minute, with scripted agents",
		`Start a station on a fresh demo home with five scripted agents and short
windows, and narrate what happens: healthy work, a silent builder kept alive
by its CPU, a forgetful agent woken by a nudge, a wedged one blocked and
requeued. With --headless it exits 0 once every demo task has settled
(--keep keeps the station running for a look around, until Ctrl-C). With a
cgo build and no --headless, the tray shows it too.`,
		"  buildstation demo --headless\n  buildstation demo --headless --keep", e.deps.Roles.Demo)
}
