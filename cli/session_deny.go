package cli

import (
	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor/client"
)

func init() { subcommand("session", newSessionDenyCmd) }

func newSessionDenyCmd(e *env, runF func(*sessionDecideOptions) error) *cobra.Command {
	return newDecideCmd(e, runF, &sessionDecideOptions{Verb: "deny", decide: (*client.Client).Deny},
		"Deny the tool call (or question) a session waits on",
		`Deny the tool call a session's agent asks permission for, or refuse its
question. The agent reads the denial, with the note, and goes on without it.
With --request, only that request is denied (a changed one is refused:
"the request changed; look again"); without it, whatever waits is denied.`,
		`  buildstation session deny t7
  buildstation session deny t7 --request 3f9a1c0b2d4e --note "do not publish; open a PR instead"`,
		"why, for the agent to read")
}
