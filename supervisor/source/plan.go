package source

import (
	"strings"

	"github.com/buildstation/buildstation/supervisor"
)

// ActionKind is what a poll changes on the board.
type ActionKind int

const (
	ActAdd     ActionKind = iota // a new matching issue: add its task
	ActEdit                      // its issue was edited: the queued task takes the new title and body
	ActCancel                    // its issue was taken back (closed, unlabelled, out of the import state): cancel the queued task
	ActCheck                     // a queued or running task's issue left the matching list: read it to learn why
	ActRequeue                   // its issue matches again (reopened, relabelled): queue the task the source cancelled, a new attempt
	ActTell                      // its issue was taken back while the task runs: tell its session, which decides
)

var actionNames = [...]string{"add", "edit", "cancel", "check", "requeue", "tell"}

func (k ActionKind) String() string { return actionNames[k] }

// Action is one change a poll asks of the board.
type Action struct {
	Kind   ActionKind
	Item   Item            // the issue (ActAdd, ActEdit, ActCancel, ActRequeue, ActTell)
	Task   supervisor.Task // the task it concerns (all but ActAdd)
	Reason string          // why (ActCancel, ActRequeue, ActTell): "its issue acme/web#3 was closed upstream"
}

// takenBackPrefix starts the reason of every task the source cancelled:
// only such a task is queued again when its issue matches again; one a
// person cancelled stays cancelled.
const takenBackPrefix = "its issue "

// TakenBack is the reason a task is cancelled (or its session told) when
// its issue ref was taken back: "its issue acme/web#3 was closed upstream".
func TakenBack(ref, why string) string { return takenBackPrefix + ref + " " + why }

// cancelledBySource reports whether t was cancelled because its issue was
// taken back.
func cancelledBySource(t supervisor.Task) bool {
	return t.State == supervisor.TaskCancelled && strings.HasPrefix(t.Reason, takenBackPrefix)
}

// why says how it stopped matching: closed, unlabelled, or out of the
// import state.
func why(it Item) string {
	switch {
	case it.Closed && it.State == "deleted":
		return "was deleted upstream"
	case it.Closed:
		return "was closed upstream"
	case it.Unlabelled:
		return "lost the label that imports it"
	}
	return "left the state tasks are taken from (now " + it.State + ")"
}

// Plan is what a poll's items change on the board, given the tasks the
// source imported already (tasks, those of its project whose issue it
// owns). An issue becomes a task once. A queued (todo) task follows its
// issue: edited, it is edited; taken back (closed, unlabelled, out of the
// import state), it is cancelled, and when its issue matches again
// (reopened, relabelled) it is queued again as a new attempt of the same
// task, its history kept. A running task is never changed under its agent:
// its session is told and decides. Work that finished is left alone.
func Plan(tasks []supervisor.Task, items []Item, full bool) []Action {
	byRef := make(map[string]supervisor.Task, len(tasks))
	for _, t := range tasks {
		byRef[t.External.ID] = t
	}
	var acts []Action
	seen := make(map[string]bool, len(items))
	for _, it := range items {
		seen[it.Ref.ID] = true
		t, known := byRef[it.Ref.ID]
		switch {
		case !known:
			if it.Matches && !it.Closed {
				acts = append(acts, Action{Kind: ActAdd, Item: it})
			}
		case t.State == supervisor.TaskTodo && (it.Closed || !it.Matches):
			acts = append(acts, Action{Kind: ActCancel, Item: it, Task: t, Reason: TakenBack(it.Ref.ID, why(it))})
		case t.State == supervisor.TaskTodo && (it.Title != t.Title || it.Body != t.Body):
			acts = append(acts, Action{Kind: ActEdit, Item: it, Task: t})
		case cancelledBySource(t) && it.Matches && !it.Closed:
			acts = append(acts, Action{Kind: ActRequeue, Item: it, Task: t, Reason: takenBackPrefix + it.Ref.ID + " matches again upstream (reopened or relabelled)"})
		case t.State == supervisor.TaskWorking && (it.Closed || !it.Matches):
			acts = append(acts, Action{Kind: ActTell, Item: it, Task: t, Reason: TakenBack(it.Ref.ID, why(it))})
		}
	}
	if full {
		for _, t := range tasks {
			if (t.State == supervisor.TaskTodo || t.State == supervisor.TaskWorking) && !seen[t.External.ID] {
				acts = append(acts, Action{Kind: ActCheck, Task: t})
			}
		}
	}
	return acts
}
