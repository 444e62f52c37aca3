package cli

import (
	"github.com/spf13/cobra"
)

// newFakeAgentCmd is `fake-agent` (hidden): a scripted agent for the demo and the tests.
// main runs it (Deps.Roles).
func newFakeAgentCmd(e *env) *cobra.Command {
	c := e.roleCmd("fake-agent [SCRIPT]", "A scripted agent for the demo and the tests", "", "  buildstation fake-agent 'print hello; sleep 1s; complete done'", e.deps.Roles.FakeAgent)
	c.Hidden = true
	return c
}
