package station

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// Tasks is the tasks' area: add, list, show, requeue, cancel, accept and
// merge them, and read their work and cost.
type Tasks struct{ st *Station }

// AddTask puts a task on a project's queue.
func (ts *Tasks) AddTask(ctx context.Context, nt supervisor.NewTask) (supervisor.Task, error) {
	nt.Title = strings.TrimSpace(nt.Title)
	if nt.Title == "" {
		return supervisor.Task{}, supervisor.Invalidf("a task needs a title; pass --title")
	}
	if _, ok := ts.st.Config().Project(nt.Project); !ok {
		if w := ts.st.Control.configWarning(); w != "" {
			return supervisor.Task{}, supervisor.NotFoundf("unknown project %q; config.toml was edited but not applied: %s", nt.Project, w)
		}
		return supervisor.Task{}, supervisor.NotFoundf("unknown project %q; use one of %s, or add it to config.toml (the station picks it up at once)", nt.Project, ts.projectNames())
	}
	t, err := ts.st.board.AddTask(ctx, nt)
	if err != nil {
		return supervisor.Task{}, err // the board's error says "add task" already
	}
	ts.st.host.publishTask(t)
	ts.st.poke()
	return t, nil
}

func (ts *Tasks) projectNames() string {
	var names []string
	for _, p := range ts.st.Config().Projects {
		names = append(names, fmt.Sprintf("%q", p.Name))
	}
	if len(names) == 0 {
		return "(none configured yet)"
	}
	return strings.Join(names, ", ")
}

// Task returns one task.
func (ts *Tasks) Task(ctx context.Context, id string) (supervisor.Task, error) {
	t, err := ts.st.board.Task(ctx, id)
	if errors.Is(err, supervisor.ErrNotFound) {
		return supervisor.Task{}, supervisor.NotFoundf("task %s not found; list tasks with \"buildstation task ls\"", id)
	}
	return t, err
}

// Tasks lists tasks, oldest first.
func (ts *Tasks) Tasks(ctx context.Context, f supervisor.TaskFilter) ([]supervisor.Task, error) {
	if f.State != "" && !f.State.Valid() {
		return nil, supervisor.Invalidf("unknown state %q; use one of todo, working, review, blocked, done, cancelled", f.State)
	}
	return ts.st.board.Tasks(ctx, f)
}

// BoardGeneration is the board's generation (supervisor.Generational);
// ok is false when the board cannot tell, so nothing read from it may be
// kept.
func (ts *Tasks) BoardGeneration(ctx context.Context) (g uint64, ok bool) {
	b, can := ts.st.board.(supervisor.Generational)
	if !can {
		return 0, false
	}
	g, err := b.Generation(ctx)
	return g, err == nil
}

// History returns a task's transitions, oldest first.
func (ts *Tasks) History(ctx context.Context, id string) ([]supervisor.Transition, error) {
	if _, err := ts.Task(ctx, id); err != nil {
		return nil, err
	}
	return ts.st.board.History(ctx, id)
}

// Requeue moves a blocked task back to the queue for a fresh attempt. The
// old reason stays in the history. On a shared board a task pinned to
// another station (its work is only there) is refused: see
// RequeueAnywhere.
func (ts *Tasks) Requeue(ctx context.Context, id, note string) (supervisor.Task, error) {
	return ts.requeue(ctx, id, note, false)
}

// RequeueAnywhere is Requeue that lifts the task's pin to another station
// first, for a station gone for good: the task starts from what its
// project's remote holds of it, or from its base.
func (ts *Tasks) RequeueAnywhere(ctx context.Context, id, note string) (supervisor.Task, error) {
	return ts.requeue(ctx, id, note, true)
}

func (ts *Tasks) requeue(ctx context.Context, id, note string, anywhere bool) (supervisor.Task, error) {
	cur, err := ts.Task(ctx, id)
	if err != nil {
		return supervisor.Task{}, err
	}
	if cur.State != supervisor.TaskBlocked && cur.State != supervisor.TaskCancelled {
		return supervisor.Task{}, supervisor.Conflictf("task %s is %s; only a blocked or cancelled task can be requeued", id, cur.State)
	}
	if err := ts.st.branches.requeuePinned(cur, anywhere); err != nil {
		return supervisor.Task{}, err
	}
	elsewhere := ""
	if anywhere && cur.Pinned != "" && cur.Pinned != ts.st.host.stationName() {
		if err := ts.st.branches.liftPin(ctx, cur); err != nil {
			return supervisor.Task{}, err
		}
		elsewhere = cur.Pinned
	}
	// Resume before the move: if the worktree cannot be reset, the task
	// stays blocked and nothing has changed.
	notes, err := ts.st.resume(ctx, cur, elsewhere)
	if err != nil {
		return supervisor.Task{}, err
	}
	if n := strings.TrimSpace(note); n != "" {
		notes = append([]string{n}, notes...)
	}
	t, err := ts.st.board.Move(ctx, id, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskBlocked, supervisor.TaskCancelled}, To: supervisor.TaskTodo,
		BumpAttempt: true, Note: strings.Join(notes, "\n\n"), Actor: operator(ctx), Reason: ""})
	if err != nil {
		var se *supervisor.StateError
		if errors.As(err, &se) {
			return supervisor.Task{}, supervisor.Conflictf("task %s is %s; only a blocked or cancelled task can be requeued", id, se.Have)
		}
		return supervisor.Task{}, fmt.Errorf("requeue task %s: %w", id, err)
	}
	ts.st.host.publishTask(t)
	ts.st.poke()
	return t, nil
}

// Cancel takes a task off the board for good, ending its session if one runs.
func (ts *Tasks) Cancel(ctx context.Context, id string) (supervisor.Task, error) {
	if _, err := ts.Task(ctx, id); err != nil {
		return supervisor.Task{}, err
	}
	t, err := ts.st.board.Move(ctx, id, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskTodo, supervisor.TaskWorking, supervisor.TaskReview, supervisor.TaskBlocked}, To: supervisor.TaskCancelled,
		Reason: "cancelled by " + operatorWho(ctx), Actor: operator(ctx), KeepLease: ts.st.sessionForTask(id) != nil})
	if err != nil {
		var se *supervisor.StateError
		if errors.As(err, &se) {
			return supervisor.Task{}, supervisor.Conflictf("task %s is already %s; nothing to cancel", id, se.Have)
		}
		return supervisor.Task{}, fmt.Errorf("cancel task %s: %w", id, err)
	}
	ts.st.host.publishTask(t)
	if s := ts.st.sessionForTask(id); s != nil {
		if err := s.send(ctx, command{kind: cmdEnd, result: outEnded}); err != nil {
			ts.st.log.Warn("end cancelled session", "session", s.spec.ID, "err", err)
		}
	} else {
		ts.st.finish(ctx, id) // no session will settle it: remove its worktree now
	}
	return t, nil
}

// PullRequest opens done task id's pull request on its project's GitHub
// source and returns its URL: its branch pushed to the project's remote,
// then the pull request opened, or the one the branch has already. The
// task must be done, with commits, and not merged yet.
func (ts *Tasks) PullRequest(ctx context.Context, id string) (string, error) {
	t, p, err := ts.taskProject(ctx, id)
	if err != nil {
		return "", err
	}
	var src config.Source
	for _, s := range ts.st.Config().Sources {
		if s.Kind == config.SourceGitHub && s.Project == p.Name {
			src = s
			break
		}
	}
	if src.Kind == "" {
		return "", supervisor.Conflictf("project %s has no GitHub source; add a [[sources]] table with kind = \"github\", project = %q and its repo to config.toml (docs/sources.md)", p.Name, p.Name)
	}
	if t.State != supervisor.TaskDone {
		return "", supervisor.Conflictf("task %s is not done; open a pull request once it is", id)
	}
	w, ok, err := ts.TaskWork(ctx, id)
	if err != nil {
		return "", err
	}
	if w.Merged != nil {
		return "", supervisor.Conflictf("task %s was merged into %s already; its work needs no pull request", id, w.Merged.Into)
	}
	if !ok || len(w.Commits) == 0 {
		return "", supervisor.Conflictf("task %s has no commits; there is nothing to open a pull request for", id)
	}
	if ts.st.opt.OpenPullRequest == nil {
		return "", supervisor.Conflictf("this station cannot open pull requests; push branch %s and open one by hand", w.Branch)
	}
	return ts.st.opt.OpenPullRequest(ctx, src, p, t)
}
