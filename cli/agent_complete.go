package cli

import (
	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor/client"
)

func init() { subcommand("agent", newAgentCompleteCmd) }

func newAgentCompleteCmd(e *env, runF func(*agentReportOptions) error) *cobra.Command {
	return newAgentReportCmd(e, runF, &agentReportOptions{verb: "complete", flag: "summary", need: "what was done",
		what: "report the task done", call: (*client.Client).AgentComplete},
		"Report the task done (it moves to review or done)",
		`  buildstation agent complete --summary "Fixed the login race; added a test"`,
		"what was done, for the reviewer")
}
