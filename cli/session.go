package cli

import (
	"github.com/spf13/cobra"
)

// sessionCmd is `session`; each of its commands is in session_<verb>.go.
func (e *env) sessionCmd() *cobra.Command {
	return group("session", "List live sessions, attach to one, type into it, or answer what it asks",
		"A session is one agent run on one task (ids look like t2.1: task t2, attempt 1;\nt2.1.review for its review). Every session command also takes a task id and\npicks that task's live session.",
		"  buildstation session ls\n  buildstation session attach t2\n  buildstation session send t2 \"please commit and report\"\n  buildstation session allow t2",
		newSessionLsCmd(e, nil),
		newSessionAttachCmd(e, nil),
		newSessionSendCmd(e, nil),
		newSessionAllowCmd(e, nil),
		newSessionDenyCmd(e, nil),
		newSessionAnswerCmd(e, nil),
	)
}
