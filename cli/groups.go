package cli

import (
	"github.com/spf13/cobra"
)

// The command tree below the root: each command is in its own file,
// cli/<group>_<verb>.go, which registers it in its group (func init,
// subcommand), so a new command is its file; the groups and the commands
// at the top (cli/<verb>.go) are here.

// groupCommands are the constructors of each group's commands (task,
// session, …), as their files register them. Only init writes it.
var groupCommands = map[string][]func(*env) *cobra.Command{}

// subcommand registers newCmd as a command of group.
func subcommand[O any](group string, newCmd func(*env, func(*O) error) *cobra.Command) {
	groupCommands[group] = append(groupCommands[group], func(e *env) *cobra.Command { return newCmd(e, nil) })
}

// subcommands are group's commands for the invocation e: none when e
// runs another top-level command (see only), so a verb builds its own
// group's commands and not the whole tree.
func (e *env) subcommands(group string) []*cobra.Command {
	if e.only != "" && e.only != group {
		return nil
	}
	var cs []*cobra.Command
	for _, newCmd := range groupCommands[group] {
		cs = append(cs, newCmd(e))
	}
	return cs
}

// boardCommands are the top-level help's "Tasks, sessions and projects".
func (e *env) boardCommands() []*cobra.Command {
	return []*cobra.Command{
		group("task", "Add, list, show, diff, accept, merge, requeue and cancel tasks",
			"A task is one piece of work for one project: the station runs an agent on it\nin its own git worktree, and moves it through todo, working, review, blocked,\ndone (or cancelled).",
			"  buildstation task add --project web --title \"Fix the login page\"\n  buildstation task ls --state blocked",
			e.subcommands("task")...),
		group("session", "List live sessions, attach to one, type into it, or answer what it asks",
			"A session is one agent run on one task (ids look like t2.1: task t2, attempt 1;\nt2.1.review for its review). Every session command also takes a task id and\npicks that task's live session.",
			"  buildstation session ls\n  buildstation session attach t2\n  buildstation session send t2 \"please commit and report\"\n  buildstation session allow t2",
			e.subcommands("session")...),
		newLogsCmd(e, nil),
		newStatusCmd(e, nil),
		group("project", "Add, list and remove projects, pause or resume their queues, edit their overrides",
			"Projects are the [[projects]] tables of config.toml: a folder, the agent that\nworks in it, its windows and gate.",
			"  buildstation project add ~/src/web\n  buildstation project ls\n  buildstation project pause web --reason \"release freeze\"",
			e.subcommands("project")...),
		group("board", "Migrate the board, or show its schema, integrity and stations",
			"These open the board config.toml names (station.db, or a shared PostgreSQL)\nthemselves, so they work with no station running.",
			"  buildstation board status\n  buildstation board migrate --json",
			e.subcommands("board")...),
		group("source", "Connect GitHub repositories and Linear teams whose issues become tasks",
			"Sources are the [[sources]] tables of config.toml: the open issues of a\nrepository or a team that carry a label become tasks, and the station\nwrites its progress back to them (docs/sources.md).",
			"  buildstation source login github\n  buildstation source ls",
			e.subcommands("source")...),
	}
}

// stationCommands are "The station and the tray".
func (e *env) stationCommands() []*cobra.Command {
	return []*cobra.Command{
		newDaemonCmd(e), newDemoCmd(e), newServiceCmd(e), newOpenCmd(e), newFakeAgentCmd(e),
		newVersionCmd(e, nil),
		group("notify", "Notices on your phone: test the [phone] service, store its token",
			"The [phone] table of config.toml forwards notices to ntfy or a webhook;\na permission forwarded to ntfy can be allowed or denied from the phone\n(docs/phone.md).",
			"  buildstation notify test",
			e.subcommands("notify")...),
	}
}

// agentCommand is "Inside a session": what agents and their hooks run.
func (e *env) agentCommand() *cobra.Command {
	return group("agent", "Report from inside a session (what agents and their hooks run)",
		"These run inside a session: they reach the station through BUILDSTATION_URL\nwith the session's own token (BUILDSTATION_TOKEN), which acts on its own\ntask only. Agents with the station's MCP tools may call those instead.",
		"  buildstation agent progress \"half the tests pass\"\n  buildstation agent complete --summary \"done: see the commits\"",
		e.subcommands("agent")...)
}
