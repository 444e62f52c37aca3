package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor/client"
)

// sessionSendOptions are `session send`'s.
type sessionSendOptions struct {
	*env
	ID, Text string
}

func init() { subcommand("session", newSessionSendCmd) }

func newSessionSendCmd(e *env, runF func(*sessionSendOptions) error) *cobra.Command {
	o := &sessionSendOptions{env: e}
	return &cobra.Command{
		Use:   "send ID TEXT...",
		Short: "Type TEXT into a session, then Enter",
		Long: `Type TEXT into a session, then Enter as a separate keystroke (an agent's TUI
takes one fast burst as a paste and would not submit it). Words are joined
with spaces; put -- before text that starts with a dash.`,
		Example: `  buildstation session send t2.1 "the tests need PostgreSQL: run make pg first"
  buildstation session send t2 -- --help`,
		Args:              positional(2, -1),
		ValidArgsFunction: e.completeSessions,
		RunE: runE(o, func(_ *cobra.Command, args []string) error {
			o.ID, o.Text = args[0], strings.Join(args[1:], " ")
			if strings.TrimSpace(o.Text) == "" {
				return usagef("session send needs text to type")
			}
			return nil
		}, runF, sessionSendRun),
	}
}

func sessionSendRun(o *sessionSendOptions) error {
	return tell(o.env, func(c *client.Client) error { return c.Send(o.ctx, o.ID, o.Text) }, "")
}
