package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// The role verbs (daemon.go, demo.go, service.go, open.go,
// fake_agent.go) are main's to run: their arguments go to the role
// unparsed (it has its own few flags); --help and -h are answered here.

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
