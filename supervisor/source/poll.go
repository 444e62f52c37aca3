package source

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// poll asks source i what changed and brings the board in line with it.
func (s *Syncer) poll(ctx context.Context, i int, now time.Time) {
	r := s.srcs[i]
	s.setNext(i, now.Add(s.intervalOf(i)))
	items, full, err := r.tr.Poll(ctx)
	if err != nil {
		s.failed(i, err, now)
		return
	}
	tasks, err := s.owned(ctx, i)
	if err != nil {
		s.o.Log.Warn("source: read the board", "source", r.cfg.Name(), "err", err)
		return
	}
	for k := range items {
		items[k] = Bounded(items[k])
	}
	s.addComments(ctx, i, tasks, items)
	for _, a := range Plan(tasks, items, full) {
		if a.Kind == ActCheck {
			it, err := r.tr.Item(ctx, *a.Task.External)
			if EntityLevel(err) {
				// The issue itself is gone (deleted, transferred).
				it, err = Item{Ref: *a.Task.External, Closed: true, State: "deleted"}, nil
			}
			if err != nil {
				s.failed(i, err, now)
				return
			}
			it = Bounded(it)
			acts := Plan([]supervisor.Task{a.Task}, []Item{it}, false)
			if len(acts) == 0 {
				continue
			}
			a = acts[0]
		}
		if err := s.apply(ctx, r.cfg.Project, a); err != nil {
			s.o.Log.Warn("source: import", "source", r.cfg.Name(), "action", a.Kind, "err", err)
		}
	}
	s.relay(ctx, i, tasks, items)
	s.reviewPulls(ctx, i, tasks)
	s.worked(i, now)
	s.setState(i, func(st *supervisor.SourceState) { st.Tasks = len(tasks) + countAdds(items, tasks) })
}

// addComments puts, in the body of each item that a task is yet to start
// from (a new issue, or a queued task's), the comments of people who can
// act on it: the agent's prompt holds what they said, not only the
// issue's link. An issue without comments is not asked; one whose
// comments cannot be read keeps its body alone (logged).
func (s *Syncer) addComments(ctx context.Context, i int, tasks []supervisor.Task, items []Item) {
	state := make(map[string]supervisor.TaskState, len(tasks))
	for _, t := range tasks {
		state[t.External.ID] = t.State
	}
	for k, it := range items {
		st, known := state[it.Ref.ID]
		if !it.Matches || it.Closed || it.Comments == 0 || known && st != supervisor.TaskTodo {
			continue
		}
		cs, err := s.srcs[i].tr.Comments(ctx, it.Ref, time.Time{})
		if err != nil {
			s.o.Log.Warn("source: read an issue's comments for its task", "issue", it.Ref.ID, "err", err)
			continue
		}
		items[k].Body = WithComments(it.Body, cs, it.Ref.URL)
	}
}

// relay types the new comments on a running task's issue, by people who
// can act on it, into its session, as a person's `session send` does: a
// reviewer's word reaches the agent at work. Only issues the poll saw
// change are asked; each comment goes once.
func (s *Syncer) relay(ctx context.Context, i int, tasks []supervisor.Task, items []Item) {
	tl, ok := s.o.Station.(Teller)
	if !ok {
		return
	}
	changed := map[string]bool{}
	for _, it := range items {
		changed[it.Ref.ID] = true
	}
	for _, t := range tasks {
		if t.State != supervisor.TaskWorking || !changed[t.External.ID] {
			continue
		}
		since := s.relayedUpTo(ctx, t)
		cs, err := s.srcs[i].tr.Comments(ctx, *t.External, since)
		if err != nil {
			s.o.Log.Warn("source: read an issue's comments for its session", "task", t.ID, "err", err)
			continue
		}
		for _, c := range cs {
			msg := fmt.Sprintf("Build Station: %s commented on issue %s: %s", c.Author, t.External.ID, c.Body)
			if err := tl.Send(ctx, t.ID, msg); err != nil {
				s.o.Log.Warn("source: send an issue's comment to its session", "task", t.ID, "err", err)
				break
			}
			s.wmu.Lock()
			s.relayed[t.ID] = c.At
			s.wmu.Unlock()
		}
	}
}

// relayedUpTo is the time of the last comment relayed to t's session, or
// when its current run started.
func (s *Syncer) relayedUpTo(ctx context.Context, t supervisor.Task) time.Time {
	s.wmu.Lock()
	at, ok := s.relayed[t.ID]
	s.wmu.Unlock()
	if ok {
		return at
	}
	h, err := s.o.Board.History(ctx, t.ID)
	if err != nil {
		return time.Now()
	}
	for k := len(h) - 1; k >= 0; k-- {
		if h[k].To == supervisor.TaskWorking && h[k].From != supervisor.TaskWorking {
			// GitHub's times are to the second: a comment made in the
			// second the run started counts as after it.
			at = h[k].At.Truncate(time.Second).Add(-time.Nanosecond)
			break
		}
	}
	s.wmu.Lock()
	s.relayed[t.ID] = at
	s.wmu.Unlock()
	return at
}

// owned lists the tasks of source i's project whose issue it owns.
func (s *Syncer) owned(ctx context.Context, i int) ([]supervisor.Task, error) {
	r := s.srcs[i]
	all, err := s.o.Board.Tasks(ctx, supervisor.TaskFilter{Project: r.cfg.Project})
	if err != nil {
		return nil, err
	}
	var out []supervisor.Task
	for _, t := range all {
		if Owns(r.cfg, t.External) {
			out = append(out, t)
		}
	}
	return out, nil
}

// apply carries out one action on the board.
func (s *Syncer) apply(ctx context.Context, project string, a Action) error {
	switch a.Kind {
	case ActAdd:
		ref := a.Item.Ref
		_, err := s.o.Station.AddTask(ctx, supervisor.NewTask{Project: project, Title: a.Item.Title, Body: a.Item.Body, External: &ref})
		if supervisor.IsDuplicateExternal(err) {
			return nil // another station (or a moment ago, this one) imported it
		}
		return err
	case ActEdit:
		ed, ok := s.o.Board.(supervisor.TaskEditor)
		if !ok {
			return errors.New("this board cannot edit tasks")
		}
		_, err := ed.EditTask(ctx, a.Task.ID, a.Item.Title, a.Item.Body)
		return ignoreMoved(err)
	case ActCancel:
		_, err := s.o.Board.Move(ctx, a.Task.ID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskTodo}, To: supervisor.TaskCancelled,
			Reason: a.Reason, Actor: "source"})
		return ignoreMoved(err)
	case ActRequeue:
		if rq, ok := s.o.Station.(Requeuer); ok {
			_, err := rq.Requeue(ctx, a.Task.ID, a.Reason)
			return ignoreMoved(err)
		}
		_, err := s.o.Board.Move(ctx, a.Task.ID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskCancelled}, To: supervisor.TaskTodo,
			BumpAttempt: true, Note: a.Reason, Actor: "source"})
		return ignoreMoved(err)
	case ActTell:
		key := a.Task.ID + "\x00" + a.Reason
		s.wmu.Lock()
		told := s.told[key]
		s.wmu.Unlock()
		if told {
			return nil
		}
		tl, ok := s.o.Station.(Teller)
		if !ok {
			return nil
		}
		msg := "Build Station: " + a.Reason + ". Decide whether to finish or stop: if the work is no longer wanted, block the task saying so."
		if err := tl.Send(ctx, a.Task.ID, msg); err != nil {
			return fmt.Errorf("tell %s's session that %s: %w", a.Task.ID, a.Reason, err)
		}
		s.wmu.Lock()
		s.told[key] = true
		s.wmu.Unlock()
		s.o.Log.Info("source: told a running session its issue was taken back", "task", a.Task.ID, "reason", a.Reason)
	}
	return nil
}

// ignoreMoved drops a conflict: the task started meanwhile, and a started
// task is not changed by its issue.
func ignoreMoved(err error) error {
	if errors.Is(err, supervisor.ErrConflict) {
		return nil
	}
	return err
}

func countAdds(items []Item, tasks []supervisor.Task) int {
	n := 0
	for _, a := range Plan(tasks, items, false) {
		if a.Kind == ActAdd {
			n++
		}
	}
	return n
}
