package cli

import (
	"github.com/spf13/cobra"
)

// newServiceCmd is `service`: the station as a background service, the tray at login.
// main runs it (Deps.Roles).
func newServiceCmd(e *env) *cobra.Command {
	return e.roleCmd("service install|uninstall|start|stop|status|pause|resume [--dry-run]", "Install the station as a background service, and the tray at login",
		`Install (or remove, start, stop, inspect) the station as the user's
background service — macOS: LaunchAgents; Linux: a systemd user unit and an
XDG autostart entry; Windows: a Task Scheduler task of the installing user,
no admin needed (--system: a Windows service instead, which needs admin) —
and register the buildstation:// link scheme. --dry-run prints every file
and command instead. Install and uninstall are idempotent. pause asks a
running tray and station to quit and records which ran, keeping the
autostart; resume starts them again from this program (what the Windows
installer runs around replacing the files).`,
		"  buildstation service install --dry-run\n  buildstation service status", e.deps.Roles.Service)
}
