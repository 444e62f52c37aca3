package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor/client"
)

func init() { subcommand("session", newSessionAnswerCmd) }

func newSessionAnswerCmd(e *env, runF func(*sessionDecideOptions) error) *cobra.Command {
	o := &sessionDecideOptions{env: e, Verb: "answer", decide: (*client.Client).Answer}
	c := &cobra.Command{
		Use:   "answer ID [--request REQUEST] TEXT...",
		Short: "Answer the question a session's agent asks",
		Long: `Answer the question a session's agent asks a person (Claude Code's
AskUserQuestion): one of the options "session ls" shows, or any text.
Words are joined with spaces. --request names the question you read, as
for "session allow"; without it, at a terminal, the question is shown and
you confirm; a script must pass --request.`,
		Example: `  buildstation session answer t7 --request 3f9a1c0b2d4e blue
  buildstation session answer t7 --request 3f9a1c0b2d4e "use the staging database"`,
		Args:              positional(2, -1),
		ValidArgsFunction: e.completeSessions,
		RunE: runE(o, func(_ *cobra.Command, args []string) error {
			o.ID, o.Text = args[0], strings.TrimSpace(strings.Join(args[1:], " "))
			if o.Text == "" {
				return usagef("session answer needs the answer's text")
			}
			return nil
		}, runF, sessionDecideRun),
	}
	c.Flags().StringVar(&o.Request, "request", "", "the id of the question you answer (session ls shows it); refused if the session asks something else now")
	return c
}
