package cli

import (
	"github.com/spf13/cobra"
)

// newOpenCmd is `open`: a console (or the dashboard) in the running tray.
// main runs it (Deps.Roles).
func newOpenCmd(e *env) *cobra.Command {
	return e.roleCmd("open [SESSION-ID]", "Ask the running tray to show a session's console (or the dashboard)",
		`Ask the running tray to show that session's console, or with no id the
dashboard; starts the tray when none runs. What notification clicks and
buildstation:// links call.`,
		"  buildstation open t2.1", e.deps.Roles.Open)
}
