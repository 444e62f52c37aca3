package source

import "github.com/buildstation/buildstation/supervisor"

// ActionKind is what a poll changes on the board.
type ActionKind int

const (
	ActAdd    ActionKind = iota // a new matching issue: add its task
	ActEdit                     // its issue was edited: the queued task takes the new title and body
	ActCancel                   // its issue was closed: cancel the queued task
	ActCheck                    // a queued task's issue left the matching list: read it to learn why
)

var actionNames = [...]string{"add", "edit", "cancel", "check"}

func (k ActionKind) String() string { return actionNames[k] }

// Action is one change a poll asks of the board.
type Action struct {
	Kind ActionKind
	Item Item            // the issue (ActAdd, ActEdit, ActCancel)
	Task supervisor.Task // the task it concerns (all but ActAdd)
}

// Plan is what a poll's items change on the board, given the tasks the
// source imported already (tasks, those of its project whose issue it
// owns). An issue becomes a task once; only a queued (todo) task follows
// its issue: a running agent's task is never changed under it, and work
// that started is never thrown away because its issue closed.
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
		case !known && it.Matches && !it.Closed:
			acts = append(acts, Action{Kind: ActAdd, Item: it})
		case !known || t.State != supervisor.TaskTodo:
		case it.Closed:
			acts = append(acts, Action{Kind: ActCancel, Item: it, Task: t})
		case it.Title != t.Title || it.Body != t.Body:
			acts = append(acts, Action{Kind: ActEdit, Item: it, Task: t})
		}
	}
	if full {
		for _, t := range tasks {
			if t.State == supervisor.TaskTodo && !seen[t.External.ID] {
				acts = append(acts, Action{Kind: ActCheck, Task: t})
			}
		}
	}
	return acts
}
