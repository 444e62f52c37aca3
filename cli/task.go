package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/supervisor"
)

// taskCmd is `task`; each of its commands is in task_<verb>.go.
func (e *env) taskCmd() *cobra.Command {
	return group("task", "Add, list, show, diff, accept, merge, requeue and cancel tasks",
		"A task is one piece of work for one project: the station runs an agent on it\nin its own git worktree, and moves it through todo, working, review, blocked,\ndone (or cancelled).",
		"  buildstation task add --project web --title \"Fix the login page\"\n  buildstation task ls --state blocked",
		newTaskAddCmd(e, nil),
		newTaskLsCmd(e, nil),
		newTaskShowCmd(e, nil),
		newTaskDiffCmd(e, nil),
		newTaskAcceptCmd(e, nil),
		newTaskMergeCmd(e, nil),
		newTaskRequeueCmd(e, nil),
		newTaskCancelCmd(e, nil),
	)
}

func taskStates() string {
	names := make([]string, len(supervisor.TaskStates))
	for i, s := range supervisor.TaskStates {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}
