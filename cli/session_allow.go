package cli

import (
	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor/client"
)

func init() { subcommand("session", newSessionAllowCmd) }

func newSessionAllowCmd(e *env, runF func(*sessionDecideOptions) error) *cobra.Command {
	return newDecideCmd(e, runF, &sessionDecideOptions{Verb: "allow", decide: (*client.Client).Allow},
		"Allow once the tool call a session waits on",
		`Allow once the tool call a session's agent asks permission for (shown by
"session ls" under DOING, whole below the table, with its request id). The
decision is in the task's history with who made it. Nothing is ever allowed
without a person: a request nobody answers in time shows in the agent's own
dialog instead.

--request names the request you read (its id, from "session ls"); if the
agent has asked something else since, nothing is allowed and the command
says "the request changed; look again". Without --request, at a terminal,
the request waiting now is shown whole and you confirm it; a script must
pass --request.`,
		`  buildstation session allow t7 --request 3f9a1c0b2d4e
  buildstation session allow t7.1 --request 3f9a1c0b2d4e --note "fine, but only this once"
  buildstation session allow t7     # at a terminal: shows the request, asks to confirm`,
		"a note kept in the task's history")
}
