package source

import (
	"fmt"
	"slices"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
)

func TestPlan(t *testing.T) {
	ref := func(n int) supervisor.External {
		return supervisor.External{Kind: "github", ID: GitHubID("acme/web", n), URL: fmt.Sprint("https://github.com/acme/web/issues/", n)}
	}
	task := func(n int, st supervisor.TaskState, title string) supervisor.Task {
		r := ref(n)
		return supervisor.Task{ID: fmt.Sprint("t", n), State: st, Title: title, Body: "b", External: &r}
	}
	item := func(n int, title string, matches, closed bool) Item {
		return Item{Ref: ref(n), Title: title, Body: "b", Matches: matches, Closed: closed}
	}
	sourceCancelled := func(t supervisor.Task) supervisor.Task {
		t.Reason = TakenBack(t.External.ID, "was closed upstream")
		return t
	}
	tests := []struct {
		name  string
		tasks []supervisor.Task
		items []Item
		full  bool
		want  []string // "kind ref-or-task"
	}{
		{"a new matching issue is added", nil, []Item{item(1, "a", true, false)}, true, []string{"add acme/web#1"}},
		{"a new issue without the label is not", nil, []Item{item(1, "a", false, false)}, false, nil},
		{"a closed new issue is not", nil, []Item{item(1, "a", true, true)}, false, nil},
		{"a known issue is not added twice", []supervisor.Task{task(1, supervisor.TaskTodo, "a")}, []Item{item(1, "a", true, false)}, true, nil},
		{"nor after its task finished", []supervisor.Task{task(1, supervisor.TaskDone, "a")}, []Item{item(1, "a", true, false)}, true, nil},
		{"an edit updates the queued task", []supervisor.Task{task(1, supervisor.TaskTodo, "a")}, []Item{item(1, "b", true, false)}, false, []string{"edit t1"}},
		{"an edit leaves a running task alone", []supervisor.Task{task(1, supervisor.TaskWorking, "a")}, []Item{item(1, "b", true, false)}, false, nil},
		{"closed upstream cancels the queued task", []supervisor.Task{task(1, supervisor.TaskTodo, "a")}, []Item{item(1, "a", false, true)}, false, []string{"cancel t1"}},
		{"closed upstream leaves started work alone", []supervisor.Task{task(1, supervisor.TaskBlocked, "a")}, []Item{item(1, "a", false, true)}, false, nil},
		{"missing from a full list: check it", []supervisor.Task{task(1, supervisor.TaskTodo, "a"), task(2, supervisor.TaskWorking, "a"), task(3, supervisor.TaskDone, "a")}, nil, true, []string{"check t1", "check t2"}},
		{"missing from a delta: nothing", []supervisor.Task{task(1, supervisor.TaskTodo, "a")}, nil, false, nil},
		// Taking back is honoured (#39 item 2).
		{"unlabelled or out of the import state: the queued task is cancelled", []supervisor.Task{task(1, supervisor.TaskTodo, "a")}, []Item{item(1, "a", false, false)}, false, []string{"cancel t1"}},
		{"reopened or relabelled: the task the source cancelled is queued again", []supervisor.Task{sourceCancelled(task(1, supervisor.TaskCancelled, "a"))}, []Item{item(1, "a", true, false)}, false, []string{"requeue t1"}},
		{"a task a person cancelled stays cancelled", []supervisor.Task{task(1, supervisor.TaskCancelled, "a")}, []Item{item(1, "a", true, false)}, false, nil},
		{"closed upstream: a running task's session is told", []supervisor.Task{task(1, supervisor.TaskWorking, "a")}, []Item{item(1, "a", false, true)}, false, []string{"tell t1"}},
		{"unlabelled: a running task's session is told", []supervisor.Task{task(1, supervisor.TaskWorking, "a")}, []Item{item(1, "a", false, false)}, false, []string{"tell t1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, a := range Plan(tt.tasks, tt.items, tt.full) {
				what := a.Task.ID
				if a.Kind == ActAdd {
					what = a.Item.Ref.ID
				}
				got = append(got, a.Kind.String()+" "+what)
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("Plan = %q, want %q", got, tt.want)
			}
		})
	}
}
