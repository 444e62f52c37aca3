package source

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// queueWrites puts in the ledger what every imported task's history owes
// its issue and is not there yet. A task is read again only when it
// changed; the ledger's keys make a second queueing of a write a no-op,
// so a restarted station (which reads every task again) sends nothing
// twice.
func (s *Syncer) queueWrites(ctx context.Context, src int) (elsewhere bool) {
	tasks, err := s.o.Board.Tasks(ctx, supervisor.TaskFilter{Project: s.srcs[src].cfg.Project})
	if err != nil {
		s.o.Log.Warn("source: read the board", "err", err)
		return false
	}
	for _, t := range tasks {
		i := s.find(t.External, t.Project)
		if i != src || t.State == supervisor.TaskTodo && t.Attempt == 1 || !t.UpdatedAt.After(s.seenAt(t.ID)) {
			continue
		}
		h, err := s.o.Board.History(ctx, t.ID)
		if err != nil {
			s.o.Log.Warn("source: read a task's history", "task", t.ID, "err", err)
			continue
		}
		ok := true
		for _, w := range s.route(i, Writes(t, h, s.o.Context)) {
			queued, err := s.o.Ledger.Queue(ctx, w)
			if err != nil {
				s.o.Log.Warn("source: queue a write", "key", w.Key, "err", err)
				ok = false
			}
			elsewhere = elsewhere || queued && w.Source != s.srcs[src].cfg.Name()
		}
		if ok {
			s.wmu.Lock()
			s.seen[t.ID] = t.UpdatedAt
			s.wmu.Unlock()
		}
	}
	return elsewhere
}

// route names the source each write goes through. A Linear issue's pull
// request is opened on the project's GitHub source, then attached to the
// issue; without one its branch is named in a comment.
func (s *Syncer) route(i int, ws []Write) []Write {
	src := s.srcs[i].cfg
	var out []Write
	for _, w := range ws {
		w.Source = src.Name()
		if w.Kind == WritePRNote && src.Kind == config.SourceLinear {
			// The verdict goes where the pull request is; without one,
			// to the issue.
			if gh := s.githubOf(src.Project); gh != "" {
				w.Source = gh
			} else {
				w.Kind = WriteComment
			}
		}
		if w.Kind == WritePush && src.Kind == config.SourceLinear {
			if gh := s.githubOf(src.Project); gh != "" {
				w.Source = gh
			}
		}
		if w.Kind == WriteDone && src.Kind == config.SourceLinear && s.githubOf(src.Project) == "" {
			// No pull request: the comment naming the branch said it.
			continue
		}
		if w.Kind == WritePR && src.Kind == config.SourceLinear {
			gh := s.githubOf(src.Project)
			if gh == "" {
				w.Kind, w.Text, w.PR = WriteComment, fmt.Sprintf("Build Station finished %s: its work is on branch `%s`.\n\n%s", w.TaskID, w.PR.Head, w.PR.Body), nil
				out = append(out, w)
				continue
			}
			w.Source = gh
			out = append(out, w, Write{Key: w.Key + "/attach", Kind: WriteAttach, Source: src.Name(), TaskID: w.TaskID, Ref: w.Ref, Text: w.PR.Title})
			continue
		}
		out = append(out, w)
	}
	return out
}

// githubOf is the name of project's GitHub source, "" when it has none.
func (s *Syncer) githubOf(project string) string {
	for _, r := range s.srcs {
		if r.cfg.Kind == config.SourceGitHub && r.cfg.Project == project {
			return r.cfg.Name()
		}
	}
	return ""
}

func (s *Syncer) seenAt(id string) time.Time {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	return s.seen[id]
}

// send sends source src's owed writes in order. A source that fails keeps
// its writes, in order, for its next try; the other sources, each on its
// own goroutine, go on.
func (s *Syncer) send(ctx context.Context, now time.Time, src int) {
	ws, err := s.o.Ledger.Pending(ctx)
	if err != nil {
		s.o.Log.Warn("source: read the outbox", "err", err)
		return
	}
	owed := map[string]int{}
	stopped := map[string]bool{}
	// A task's state after its pull request: "in review" waits while the
	// pull request is owed (a push that failed, a source backing off).
	prOwed := map[string]bool{}
	landed := map[string]bool{} // sent in this pass
	for _, w := range ws {
		if w.Key == w.TaskID+"/pr" || w.Kind == WritePush {
			prOwed[w.TaskID] = true
		}
	}
	for _, w := range ws {
		i := s.byName(w.Source)
		if i != src {
			continue
		}
		if stopped[w.Source] || s.backingOff(i, now) || w.Kind == WriteState && w.State == StateInReview && prOwed[w.TaskID] {
			owed[w.Source]++
			continue
		}
		if w.Kind == WritePush && s.owes(ws, w.TaskID+"/pr", landed) {
			// A later run's push after the first run's pull request.
			owed[w.Source]++
			continue
		}
		err := s.sendOne(ctx, i, w)
		if err == nil {
			landed[w.Key] = true
		}
		if err == nil && (w.Key == w.TaskID+"/pr" || w.Kind == WritePush) && !s.owesPush(ws, w, landed) {
			delete(prOwed, w.TaskID)
		}
		switch {
		case err == nil:
		case EntityLevel(err):
			// One issue deleted, one write the service cannot take: that
			// write is dropped and its task says so; the source goes on.
			s.o.Log.Warn("source: a write was dropped: the service refused it for what it is about", "key", w.Key, "task", w.TaskID, "err", err)
			s.o.Ledger.Done(ctx, w.Key, Sent{}, err.Error())
			s.noteDropped(ctx, w, err)
		case !remote(err):
			// Not the source's answer (a branch not pushed yet, a pull
			// request not open yet): this write waits, the others go.
			s.o.Log.Warn("source: a write waits", "key", w.Key, "err", err)
			s.noted(i, err)
			owed[w.Source]++
		case Retryable(err):
			s.failed(i, err, now)
			stopped[w.Source] = true
			owed[w.Source]++
		default:
			s.o.Log.Warn("source: a write was refused for good", "key", w.Key, "err", err)
			s.o.Ledger.Done(ctx, w.Key, Sent{}, err.Error())
		}
	}
	n := owed[s.srcs[src].cfg.Name()]
	s.setState(src, func(st *supervisor.SourceState) { st.Owed = n })
}

// noteDropped adds a note to w's task saying its write was dropped, once
// per task and kind of write, so `task show` says why the issue was not
// written to.
func (s *Syncer) noteDropped(ctx context.Context, w Write, err error) {
	t, terr := s.o.Board.Task(ctx, w.TaskID)
	if terr != nil {
		return
	}
	note := fmt.Sprintf("source: %s refused the %s write to %s and it was dropped (%v)", w.Source, w.Kind, w.Ref.ID, err)
	for _, n := range t.Notes {
		if strings.HasPrefix(n, fmt.Sprintf("source: %s refused the %s write to %s", w.Source, w.Kind, w.Ref.ID)) {
			return
		}
	}
	// A move to the state it is in: the note alone, the reason kept.
	if _, err := s.o.Board.Move(ctx, t.ID, supervisor.Move{From: []supervisor.TaskState{t.State}, To: t.State, Reason: t.Reason, Note: note, Actor: "source"}); err != nil {
		s.o.Log.Warn("source: note a dropped write on its task", "task", t.ID, "err", err)
	}
}

// sendOne sends w through source i and records that it landed.
func (s *Syncer) sendOne(ctx context.Context, i int, w Write) error {
	switch w.Kind {
	case WritePR:
		if s.o.Publish != nil {
			if err := s.o.Publish(ctx, w.PR.Project, w.TaskID); err != nil {
				return fmt.Errorf("push the branch of %s: %w", w.TaskID, err)
			}
		}
	case WritePush:
		if s.o.Publish != nil {
			if err := s.o.Publish(ctx, w.PR.Project, w.TaskID); err != nil {
				return fmt.Errorf("push the branch of %s: %w", w.TaskID, err)
			}
		}
		// Nothing to write upstream: the pull request follows its branch.
		return s.o.Ledger.Done(ctx, w.Key, Sent{}, "")
	case WritePRNote, WriteAttach, WriteDone:
		made, ok := s.o.Ledger.Made(ctx, w.TaskID+"/pr")
		if !ok {
			return fmt.Errorf("%s has no pull request yet", w.TaskID)
		}
		w.Target = made.URL
		if w.Kind == WriteDone {
			w.Kind, w.Text = WriteComment, w.Text+" "+made.URL
		}
	}
	if err := s.o.Ledger.Try(ctx, w.Key); err != nil {
		return err
	}
	sent, err := s.srcs[i].tr.Send(ctx, w)
	if err != nil {
		return err
	}
	if sent.Note != "" {
		s.setState(i, func(st *supervisor.SourceState) { st.Note = sent.Note })
	}
	return s.o.Ledger.Done(ctx, w.Key, sent, "")
}

// owes reports whether the write keyed key is among ws and not landed.
func (s *Syncer) owes(ws []Write, key string, landed map[string]bool) bool {
	for _, w := range ws {
		if w.Key == key && !landed[key] {
			return true
		}
	}
	return false
}

// owesPush reports whether a push or the pull request of sent's task is
// still owed after sent.
func (s *Syncer) owesPush(ws []Write, sent Write, landed map[string]bool) bool {
	for _, w := range ws {
		if w.TaskID == sent.TaskID && (w.Kind == WritePush || w.Key == w.TaskID+"/pr") && !landed[w.Key] {
			return true
		}
	}
	return false
}

func (s *Syncer) byName(name string) int {
	for i, r := range s.srcs {
		if r.cfg.Name() == name {
			return i
		}
	}
	return -1
}

// backingOff reports whether source i failed and its wait is not over.
func (s *Syncer) backingOff(i int, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.states[i].OK && now.Before(s.states[i].Retry)
}

// remote reports whether err is the source's answer, or its silence.
func remote(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) || errors.Is(err, supervisor.ErrUnreachable) || errors.Is(err, ErrNoToken)
}

// noted shows a problem of source i's writes that is not the source's.
func (s *Syncer) noted(i int, err error) {
	msg := Problem(s.srcs[i].cfg.Name(), err, Fix(s.srcs[i].cfg, s.o.Login(s.srcs[i].cfg.Kind)))
	s.setState(i, func(st *supervisor.SourceState) { st.Problem = msg })
}
