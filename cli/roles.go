package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// roleCmds are the role verbs. Their arguments go to the role unparsed (it
// has its own few flags); --help and -h are answered here.
func (e *env) roleCmds() []*cobra.Command {
	mk := e.roleCmd
	fake := mk("fake-agent [SCRIPT]", "A scripted agent for the demo and the tests", "", "  buildstation fake-agent 'print hello; sleep 1s; complete done'", e.deps.Roles.FakeAgent)
	fake.Hidden = true
	return []*cobra.Command{
		mk("daemon [--home DIR]", "Run the station in the foreground",
			`Run the station in this terminal: the board, the scheduler, the sessions,
the watchdog and the local API. It logs to stderr and to logs/station.log in
the home. Ctrl-C stops it and says what happens to the running sessions
(pty sessions end and their tasks are blocked to be requeued; tmux sessions
live on and are adopted by the next station).`,
			"  buildstation daemon\n  buildstation daemon --home ~/bs-test", e.deps.Roles.Daemon),
		mk("demo [--headless [--keep]]", "The whole lifecycle in a minute, with scripted agents",
			`Start a station on a fresh demo home with five scripted agents and short
windows, and narrate what happens: healthy work, a silent builder kept alive
by its CPU, a forgetful agent woken by a nudge, a wedged one blocked and
requeued. With --headless it exits 0 once every demo task has settled
(--keep keeps the station running for a look around, until Ctrl-C). With a
cgo build and no --headless, the tray shows it too.`,
			"  buildstation demo --headless\n  buildstation demo --headless --keep", e.deps.Roles.Demo),
		mk("service install|uninstall|start|stop|status|pause|resume [--dry-run]", "Install the station as a background service, and the tray at login",
			`Install (or remove, start, stop, inspect) the station as the user's
background service — macOS: LaunchAgents; Linux: a systemd user unit and an
XDG autostart entry; Windows: a Task Scheduler task of the installing user,
no admin needed (--system: a Windows service instead, which needs admin) —
and register the buildstation:// link scheme. --dry-run prints every file
and command instead. Install and uninstall are idempotent. pause asks a
running tray and station to quit and records which ran, keeping the
autostart; resume starts them again from this program (what the Windows
installer runs around replacing the files).`,
			"  buildstation service install --dry-run\n  buildstation service status", e.deps.Roles.Service),
		mk("open [SESSION-ID]", "Ask the running tray to show a session's console (or the dashboard)",
			`Ask the running tray to show that session's console, or with no id the
dashboard; starts the tray when none runs. What notification clicks and
buildstation:// links call.`,
			"  buildstation open t2.1", e.deps.Roles.Open),
		fake,
	}
}

// roleCmd is one role verb: it takes --home and --help itself and hands the
// rest of the line to run untouched.
func (e *env) roleCmd(use, short, long, example string, run RoleFunc) *cobra.Command {
	return &cobra.Command{
		Use: use, Short: short, Long: long, Example: example,
		DisableFlagParsing: true,
		RunE: e.ownFlags(func(c *cobra.Command, home string, rest []string) error {
			if run == nil {
				return fmt.Errorf("this build has no %q; build the full binary with make build", c.Name())
			}
			if code := run(e.ctx, home, rest); code != 0 {
				return &exitCode{code}
			}
			return nil
		}),
	}
}

// ownFlags is the RunE of a command that parses its own flags
// (DisableFlagParsing): --home and --help are taken out first, help is
// answered here, and run gets the home and the rest of the line.
func (e *env) ownFlags(run func(c *cobra.Command, home string, rest []string) error) func(*cobra.Command, []string) error {
	return func(c *cobra.Command, args []string) error {
		home, rest, help, err := splitHome(e.home, args)
		switch {
		case err != nil:
			return err
		case help:
			return c.Help()
		}
		return run(c, home, rest)
	}
}

// splitHome takes --home (-home, --home=, -home=) and --help out of a role's
// arguments; home is the root's --home unless the role's own overrides it.
func splitHome(home string, args []string) (string, []string, bool, error) {
	rest := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--help" || a == "-h":
			return home, nil, true, nil
		case a == "--home" || a == "-home":
			if i+1 >= len(args) {
				return "", nil, false, usagef("--home needs a folder")
			}
			home = args[i+1]
			i++
		case strings.HasPrefix(a, "--home=") || strings.HasPrefix(a, "-home="):
			home = a[strings.Index(a, "=")+1:]
		default:
			rest = append(rest, a)
		}
	}
	return home, rest, false, nil
}
