package cli

import (
	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor/client"
)

func init() { subcommand("agent", newAgentBlockCmd) }

func newAgentBlockCmd(e *env, runF func(*agentReportOptions) error) *cobra.Command {
	return newAgentReportCmd(e, runF, &agentReportOptions{verb: "block", flag: "reason", need: "what a person must do",
		what: "report the task blocked", call: (*client.Client).AgentBlock},
		"Report the task blocked on something only a person can do",
		`  buildstation agent block --reason "needs an API key for the staging server"`,
		"what a person must do to unblock the task")
}
