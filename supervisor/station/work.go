package station

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// Finished work one command away: a task's branch as task show, task diff,
// task accept and task merge see it. Each reads the branch through
// Workspaces, so a task whose worktree is gone is still one command away.

// taskProject is a task and its project, for the verbs on its work.
func (ts *Tasks) taskProject(ctx context.Context, id string) (supervisor.Task, config.Project, error) {
	t, err := ts.Task(ctx, id)
	if err != nil {
		return supervisor.Task{}, config.Project{}, err
	}
	p, ok := ts.st.Config().Project(t.Project)
	if !ok {
		return supervisor.Task{}, config.Project{}, supervisor.NotFoundf("task %s belongs to project %q, which config.toml no longer has; add it back to see its work", id, t.Project)
	}
	if ts.st.opt.Workspaces == nil {
		return supervisor.Task{}, config.Project{}, supervisor.Conflictf("this station keeps no worktrees; task %s has no branch to show", id)
	}
	return t, p, nil
}

// TaskWork is what a task's branch holds; ok is false when it has none
// (the project is not git, or no session ran yet). A finished task's work
// is its record, written when the work was made: its worktree is gone, and
// once merged its branch no longer says where it started.
func (ts *Tasks) TaskWork(ctx context.Context, id string) (supervisor.TaskWork, bool, error) {
	t, p, err := ts.taskProject(ctx, id)
	if err != nil {
		return supervisor.TaskWork{}, false, err
	}
	rec, recorded, err := ts.workRecord(ctx, id)
	if err != nil {
		return supervisor.TaskWork{}, false, err
	}
	if recorded && t.State.Final() {
		return ts.recordedWork(ctx, p, id, rec), true, nil
	}
	w, ok, err := ts.st.opt.Workspaces.Work(ctx, p.Repo, id)
	if (err != nil || !ok) && t.State.Final() {
		// The station put the work on record and removed the worktree
		// while this read it: the record is there now.
		if rec, recorded, rerr := ts.workRecord(ctx, id); rerr == nil && recorded {
			return ts.recordedWork(ctx, p, id, rec), true, nil
		}
	}
	if err != nil {
		return supervisor.TaskWork{}, false, fmt.Errorf("task %s: %w", id, err)
	}
	w.Merged = rec.Merged
	return w, ok, nil
}

// recordedWork is a finished task's recorded work with what the
// repository still says of it: the gate's verdict, where it would merge,
// how its worktree was readied.
func (ts *Tasks) recordedWork(ctx context.Context, p config.Project, id string, rec supervisor.TaskWork) supervisor.TaskWork {
	rec.Gate = ts.st.gates.gateCheck(ctx, p, rec.Head)
	if live, ok, err := ts.st.opt.Workspaces.Work(ctx, p.Repo, id); err == nil && ok {
		rec.MergeInto = live.MergeInto
		rec.Setup = live.Setup // kept in the repository, past the worktree
	}
	return rec
}

// TaskDiff is a task's committed work, base to head.
func (ts *Tasks) TaskDiff(ctx context.Context, id string, stat bool) (string, error) {
	t, p, err := ts.taskProject(ctx, id)
	if err != nil {
		return "", err
	}
	if rec, recorded, err := ts.workRecord(ctx, id); err != nil {
		return "", err
	} else if recorded && t.State.Final() {
		return ts.st.opt.Workspaces.DiffRange(ctx, p.Repo, rec.Base, rec.Head, stat)
	}
	d, err := ts.st.opt.Workspaces.Diff(ctx, p.Repo, id, stat)
	if err != nil && t.State.Final() {
		// As in TaskWork: the worktree went, its work on record first.
		if rec, recorded, rerr := ts.workRecord(ctx, id); rerr == nil && recorded {
			return ts.st.opt.Workspaces.DiffRange(ctx, p.Repo, rec.Base, rec.Head, stat)
		}
	}
	return d, err
}

// workBoard is the board's record of tasks' work; nil when the board
// keeps none.
func (ts *Tasks) workBoard() supervisor.WorkBoard {
	wb, _ := ts.st.board.(supervisor.WorkBoard)
	return wb
}

// workRecord is what the board recorded of task id's work.
func (ts *Tasks) workRecord(ctx context.Context, id string) (supervisor.TaskWork, bool, error) {
	wb := ts.workBoard()
	if wb == nil {
		return supervisor.TaskWork{}, false, nil
	}
	w, ok, err := wb.TaskWorkRecord(ctx, id)
	if err != nil {
		return supervisor.TaskWork{}, false, fmt.Errorf("task %s: %w", id, err)
	}
	return w, ok, nil
}

// recordWork puts a finished task's work on record, read from its branch
// while its worktree still says where it started; it reports whether it
// did.
func (ts *Tasks) recordWork(ctx context.Context, p config.Project, id string) bool {
	wb := ts.workBoard()
	if wb == nil {
		return false
	}
	w, ok, err := ts.st.opt.Workspaces.Work(ctx, p.Repo, id)
	if err != nil || !ok {
		if err != nil {
			ts.st.log.Warn("read a finished task's work", "task", id, "err", err)
		}
		return false
	}
	w.Gate = nil
	if err := wb.SaveTaskWork(ctx, id, w); err != nil {
		ts.st.log.Warn("record a finished task's work", "task", id, "err", err)
		return false
	}
	return true
}

// gateCheck is the board's verdict of p's gate on sha, with its time; nil
// when none is known.
func (ga *gates) gateCheck(ctx context.Context, p config.Project, sha string) *supervisor.GateCheck {
	gc, ok := ga.st.board.(supervisor.GateCache)
	if p.Gate == "" || !ok {
		return nil
	}
	passed, _, known, err := gc.GateResult(ctx, p.Name, sha)
	if err != nil || !known {
		return nil
	}
	g := &supervisor.GateCheck{Commit: sha, Passed: passed}
	if gt, ok := ga.st.board.(supervisor.GateTimes); ok {
		if at, ok, err := gt.GateCheckedAt(ctx, p.Name, sha); err == nil && ok {
			g.CheckedAt = at
		}
	}
	return g
}

// Accept is a person marking a blocked or reviewed task done after
// looking at its work: recorded as their decision, with the gate's verdict
// on its head as it stands (not required: the person decided).
func (ts *Tasks) Accept(ctx context.Context, id, note string) (supervisor.Task, error) {
	cur, err := ts.Task(ctx, id)
	if err != nil {
		return supervisor.Task{}, err
	}
	if cur.State != supervisor.TaskBlocked && cur.State != supervisor.TaskReview {
		return supervisor.Task{}, supervisor.Conflictf("task %s is %s; only a blocked task or one in review can be accepted", id, cur.State)
	}
	if ts.st.sessionForTask(id) != nil {
		return supervisor.Task{}, supervisor.Conflictf("task %s has a session running (its review); wait for it, or cancel the task", id)
	}
	ts.st.gates.judgeBriefly(ctx, cur)
	reason := "accepted by " + operatorWho(ctx) + "; " + ts.st.gates.gateWord(ctx, cur)
	m := supervisor.Move{From: []supervisor.TaskState{supervisor.TaskBlocked, supervisor.TaskReview}, To: supervisor.TaskDone,
		Reason: reason, Actor: operator(ctx)}
	if n := strings.TrimSpace(note); n != "" {
		m.Note = "accepted: " + n
	}
	t, err := ts.st.board.Move(ctx, id, m)
	if err != nil {
		var se *supervisor.StateError
		if errors.As(err, &se) {
			return supervisor.Task{}, supervisor.Conflictf("task %s is %s now; only a blocked task or one in review can be accepted", id, se.Have)
		}
		return supervisor.Task{}, fmt.Errorf("accept task %s: %w", id, err)
	}
	ts.st.host.publishTask(t)
	ts.st.finish(ctx, id)
	return t, nil
}

// judgeBriefly runs the gate on a task's head, if it has a worktree and
// no verdict yet, waiting at most gateWait: a person accepting sees the
// verdict when it comes in time, and the run goes on to be cached if not.
func (ga *gates) judgeBriefly(ctx context.Context, t supervisor.Task) {
	p, ok := ga.st.Config().Project(t.Project)
	if !ok || p.Gate == "" || ga.st.opt.Workspaces == nil {
		return
	}
	done := make(chan struct{})
	if !ga.st.goWork(func() {
		defer close(done)
		// Not the request's: the run goes on to be cached after the
		// person's answer. The station's: a stop ends it (owner.go).
		gctx, cancel := context.WithTimeout(ga.st.running, gateTimeout)
		defer cancel()
		if _, _, err := ga.st.opt.Workspaces.HeadGate(gctx, p.Repo, t.ID, true); err != nil {
			ga.st.log.Debug("gate on an accepted task's head", "task", t.ID, "err", err)
		}
	}) {
		return // the station is stopping: no verdict
	}
	select {
	case <-done:
	case <-time.After(gateWait):
	case <-ctx.Done():
	}
}

// gateWord says the gate's verdict on a task's head, for a person's
// decision: "gate: passes on abc1234 (checked 10:02)".
func (ga *gates) gateWord(ctx context.Context, t supervisor.Task) string {
	p, ok := ga.st.Config().Project(t.Project)
	if !ok || p.Gate == "" {
		return "no gate"
	}
	if ga.st.opt.Workspaces == nil {
		return "gate not checked"
	}
	w, ok, err := ga.st.opt.Workspaces.Work(ctx, p.Repo, t.ID)
	if err != nil || !ok || w.Gate == nil {
		return "gate not checked on its head"
	}
	verdict := "fails"
	if w.Gate.Passed {
		verdict = "passes"
	}
	s := fmt.Sprintf("gate: %s on %s", verdict, supervisor.ShortSHA(w.Gate.Commit))
	if !w.Gate.CheckedAt.IsZero() {
		s += " (checked " + w.Gate.CheckedAt.Local().Format(time.DateTime) + ")"
	}
	return s
}

// Merge takes a finished task's branch into a branch of its project.
func (ts *Tasks) Merge(ctx context.Context, id, into string) (supervisor.Merged, error) {
	t, p, err := ts.taskProject(ctx, id)
	if err != nil {
		return supervisor.Merged{}, err
	}
	if !t.State.Final() && t.State != supervisor.TaskBlocked && t.State != supervisor.TaskReview {
		return supervisor.Merged{}, supervisor.Conflictf("task %s is %s; merge it once it is done (or blocked or in review, if you looked)", id, t.State)
	}
	if ts.st.sessionForTask(id) != nil {
		return supervisor.Merged{}, supervisor.Conflictf("task %s has a session running; wait for it to end before merging", id)
	}
	m, err := ts.st.opt.Workspaces.Merge(ctx, p.Repo, id, into)
	if err != nil {
		return supervisor.Merged{}, err
	}
	if wb := ts.workBoard(); wb != nil {
		if err := wb.SaveTaskMerged(ctx, id, supervisor.MergeRecord{Into: m.Into, Commit: m.Commit, At: time.Now().UTC()}); err != nil {
			ts.st.log.Warn("record a task's merge", "task", id, "err", err)
		}
	}
	if t, err := ts.Task(ctx, id); err == nil {
		ts.st.host.publishTask(t) // its card says merged
	}
	return m, nil
}
