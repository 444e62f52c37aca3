package cli

import (
	"github.com/spf13/cobra"
)

// The command tree below the root, in one place: each command is in its
// own file, cli/<group>_<verb>.go (cli/<verb>.go at the top), and is
// registered here with its constructor, under its group.

// boardCommands are the top-level help's "Tasks, sessions and projects".
func (e *env) boardCommands() []*cobra.Command {
	return []*cobra.Command{
		group("task", "Add, list, show, diff, accept, merge, requeue and cancel tasks",
			"A task is one piece of work for one project: the station runs an agent on it\nin its own git worktree, and moves it through todo, working, review, blocked,\ndone (or cancelled).",
			"  buildstation task add --project web --title \"Fix the login page\"\n  buildstation task ls --state blocked",
			newTaskAddCmd(e, nil), newTaskLsCmd(e, nil), newTaskShowCmd(e, nil), newTaskDiffCmd(e, nil), newTaskAcceptCmd(e, nil), newTaskMergeCmd(e, nil), newTaskRequeueCmd(e, nil), newTaskCancelCmd(e, nil)),
		group("session", "List live sessions, attach to one, type into it, or answer what it asks",
			"A session is one agent run on one task (ids look like t2.1: task t2, attempt 1;\nt2.1.review for its review). Every session command also takes a task id and\npicks that task's live session.",
			"  buildstation session ls\n  buildstation session attach t2\n  buildstation session send t2 \"please commit and report\"\n  buildstation session allow t2",
			newSessionLsCmd(e, nil), newSessionAttachCmd(e, nil), newSessionSendCmd(e, nil), newSessionAllowCmd(e, nil), newSessionDenyCmd(e, nil), newSessionAnswerCmd(e, nil)),
		newLogsCmd(e, nil),
		newStatusCmd(e, nil),
		group("project", "Add, list and remove projects, pause or resume their queues, edit their overrides",
			"Projects are the [[projects]] tables of config.toml: a folder, the agent that\nworks in it, its windows and gate.",
			"  buildstation project add ~/src/web\n  buildstation project ls\n  buildstation project pause web --reason \"release freeze\"",
			newProjectAddCmd(e, nil), newProjectLsCmd(e, nil), newProjectShowCmd(e, nil), newProjectPauseCmd(e, nil), newProjectResumeCmd(e, nil), newProjectSetCmd(e, nil), newProjectRmCmd(e, nil)),
		group("board", "Migrate the board, or show its schema, integrity and stations",
			"These open the board config.toml names (station.db, or a shared PostgreSQL)\nthemselves, so they work with no station running.",
			"  buildstation board status\n  buildstation board migrate --json",
			newBoardMigrateCmd(e, nil), newBoardStatusCmd(e, nil), newBoardCapCmd(e, nil)),
		group("source", "Connect GitHub repositories and Linear teams whose issues become tasks",
			"Sources are the [[sources]] tables of config.toml: the open issues of a\nrepository or a team that carry a label become tasks, and the station\nwrites its progress back to them (docs/sources.md).",
			"  buildstation source login github\n  buildstation source ls",
			newSourceLoginCmd(e, nil), newSourceLsCmd(e, nil)),
	}
}

// stationCommands are "The station and the tray".
func (e *env) stationCommands() []*cobra.Command {
	return append(e.roleCmds(),
		newVersionCmd(e, nil),
		group("notify", "Notices on your phone: test the [phone] service, store its token",
			"The [phone] table of config.toml forwards notices to ntfy or a webhook;\na permission forwarded to ntfy can be allowed or denied from the phone\n(docs/phone.md).",
			"  buildstation notify test",
			newNotifyLoginCmd(e, nil), newNotifyTestCmd(e, nil)),
	)
}

// agentCommand is "Inside a session": what agents and their hooks run.
func (e *env) agentCommand() *cobra.Command {
	return group("agent", "Report from inside a session (what agents and their hooks run)",
		"These run inside a session: they reach the station through BUILDSTATION_URL\nwith the session's own token (BUILDSTATION_TOKEN), which acts on its own\ntask only. Agents with the station's MCP tools may call those instead.",
		"  buildstation agent progress \"half the tests pass\"\n  buildstation agent complete --summary \"done: see the commits\"",
		newAgentCompleteCmd(e, nil), newAgentBlockCmd(e, nil), newAgentProgressCmd(e, nil), newAgentStatusCmd(e, nil), newAgentReviewCmd(e, nil), newAgentHookCmd(e, nil))
}
