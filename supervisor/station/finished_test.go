package station

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
	"unicode/utf8"

	"github.com/buildstation/buildstation/supervisor"
)

// finishedNotices are the finished notices told so far.
func finishedNotices(h *harness) []supervisor.Notice {
	var out []supervisor.Notice
	for _, n := range h.notes.all() {
		if n.Kind == supervisor.NoticeFinished {
			out = append(out, n)
		}
	}
	return out
}

// Work that reaches Done is news a person acts on (it is not in main
// yet): a finished notice says so once, naming the task, its session (a
// click opens its card, where Merge is) and the agent's summary, in a
// title that fits a daemon's line; work on a branch is ready to merge. A
// task with a review is finished when
// its review approves, not when its coder completes.
func TestFinishedWorkIsTold(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := startWith(t, func(o *Options) { o.Workspaces = &fakeWorkspaces{} }, project("web", 5*time.Minute, 5*time.Minute))
		task := h.add("web", "Make the login page remember the last user across restarts")
		h.proc().say("working\r\n")
		s := h.session(task.ID)
		if err := h.st.Agent.AgentComplete(h.ctx, s.ID, "the login page remembers the last user"); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		got := finishedNotices(h)
		if len(got) != 1 {
			t.Fatalf("%d finished notices for one finished task: %+v", len(got), h.notes.all())
		}
		n := got[0]
		if n.TaskID != task.ID || n.SessionID != s.ID {
			t.Errorf("the finished notice names task %q session %q, want %s %s", n.TaskID, n.SessionID, task.ID, s.ID)
		}
		if !strings.HasPrefix(n.Title, "Finished: Make the login page") || utf8.RuneCountInString(n.Title) > noticeTitleMax {
			t.Errorf("the finished notice's title %q", n.Title)
		}
		if !strings.Contains(n.Body, "the login page remembers the last user") || !strings.Contains(n.Body, "ready to merge") {
			t.Errorf("the finished notice's body %q: want the summary and that it is ready to merge", n.Body)
		}
		if n.Branch != "bs/b1/"+task.ID {
			t.Errorf("the finished notice names branch %q, want the task's (its View diff and Merge act on it)", n.Branch)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		pr := project("web", 5*time.Minute, 5*time.Minute)
		pr.Review = true
		h := start(t, pr)
		task := h.add("web", "fix it")
		h.proc().say("working\r\n")
		if err := h.st.Agent.AgentComplete(h.ctx, h.session(task.ID).ID, "fixed"); err != nil {
			t.Fatal(err)
		}
		h.proc().say("reading the diff\r\n")
		synctest.Wait()
		if got := finishedNotices(h); len(got) != 0 {
			t.Fatalf("a task in review was told finished: %+v", got)
		}
		if err := h.st.Agent.AgentReview(h.ctx, h.session(task.ID).ID, supervisor.VerdictApprove, "reads well"); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		got := finishedNotices(h)
		if len(got) != 1 || got[0].TaskID != task.ID || !strings.HasPrefix(got[0].Body, "fixed\n") {
			t.Fatalf("after the review approved: %+v, want one finished notice with the coder's summary", got)
		}
		// Not on a branch: nothing to merge, and the notice says nothing of it.
		if strings.Contains(got[0].Body, "merge") || got[0].Branch != "" {
			t.Errorf("the finished notice of work with no branch speaks of a merge: %q, branch %q", got[0].Body, got[0].Branch)
		}
	})
}

// recordBoard is a memBoard that keeps tasks' work records (a
// supervisor.WorkBoard), as the SQLite and PostgreSQL boards do.
type recordBoard struct {
	*memBoard
	mu    sync.Mutex
	works map[string]supervisor.TaskWork
}

func (b *recordBoard) SaveTaskWork(_ context.Context, id string, w supervisor.TaskWork) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.works[id] = w
	return nil
}

func (b *recordBoard) SaveTaskMerged(context.Context, string, supervisor.MergeRecord) error {
	return nil
}

func (b *recordBoard) TaskWorkRecord(_ context.Context, id string) (supervisor.TaskWork, bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	w, ok := b.works[id]
	return w, ok, nil
}

// treeWorkspaces is a git project whose worktree holds one commit until
// it is removed.
type treeWorkspaces struct {
	fakeWorkspaces
	gone atomic.Bool
}

func (f *treeWorkspaces) Remove(context.Context, supervisor.Repo, string) error {
	f.gone.Store(true)
	return nil
}

func (f *treeWorkspaces) Work(_ context.Context, _ supervisor.Repo, id string) (supervisor.TaskWork, bool, error) {
	if f.gone.Load() {
		return supervisor.TaskWork{}, false, nil
	}
	return supervisor.TaskWork{Branch: "bs/b1/" + id, Base: "1111111", Head: "2222222", Commits: []string{"2222222 healthz"}}, true, nil
}

// A card follows the station's events alone: once a finished task's
// session has ended, its work is put on record and its worktree removed,
// and an event about the task comes after the record, so a dashboard that
// reads the work on that event finds it (a read on the session's end alone
// could fall between the record and the removal and find nothing).
func TestFinishedWorkIsToldOnceOnRecord(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rb := &recordBoard{memBoard: newMemBoard(), works: map[string]supervisor.TaskWork{}}
		h := startWith(t, func(o *Options) {
			o.Board = rb
			o.Workspaces = &treeWorkspaces{}
		}, project("web", 5*time.Minute, 5*time.Minute))
		task := h.add("web", "Add a health endpoint")
		p := h.proc()
		p.say("working\r\n")
		s := h.session(task.ID)
		sub := h.st.Sessions.Subscribe(256)
		defer sub.Close()
		if err := h.st.Agent.AgentComplete(h.ctx, s.ID, "added /healthz"); err != nil {
			t.Fatal(err)
		}
		p.exit(0)
		synctest.Wait()
		ended, told := false, false
		for len(sub.C) > 0 {
			e := <-sub.C
			switch {
			case e.Kind == supervisor.EventSession && e.Session != nil && e.Session.ID == s.ID && e.Session.State == supervisor.SessEnded:
				ended = true
			case ended && e.Kind == supervisor.EventTask && e.Task != nil && e.Task.ID == task.ID:
				told = true
			}
		}
		if !ended {
			t.Fatal("the session's end was not told")
		}
		if !told {
			t.Error("no event about the task came once its work was on record: a card that read its work at the session's end keeps what it found")
		}
		w, ok, err := h.st.Tasks.TaskWork(h.ctx, task.ID)
		if err != nil || !ok || len(w.Commits) != 1 {
			t.Errorf("the finished task's work: %+v %v %v, want its one commit on record", w, ok, err)
		}
	})
}

// finishingWorkspaces is treeWorkspaces whose next read of the work finds
// the station finishing the task just then: the work goes on record and
// the worktree goes before the read looks.
type finishingWorkspaces struct {
	treeWorkspaces
	board  *recordBoard
	finish atomic.Bool
}

func (f *finishingWorkspaces) Work(ctx context.Context, r supervisor.Repo, id string) (supervisor.TaskWork, bool, error) {
	if f.finish.CompareAndSwap(true, false) {
		w, _, _ := f.treeWorkspaces.Work(ctx, r, id)
		_ = f.board.SaveTaskWork(ctx, id, w)
		f.gone.Store(true)
	}
	return f.treeWorkspaces.Work(ctx, r, id)
}

// A finished task read just as the station puts its work on record and
// removes its worktree still shows its work: task show never finds a done
// task's work gone for a moment.
func TestFinishedWorkReadDuringItsRecordShows(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rb := &recordBoard{memBoard: newMemBoard(), works: map[string]supervisor.TaskWork{}}
		ws := &finishingWorkspaces{board: rb}
		// A task already cancelled before the station starts: no session runs.
		task, err := rb.AddTask(t.Context(), supervisor.NewTask{Project: "web", Title: "Add a health endpoint"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := rb.Move(t.Context(), task.ID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskTodo}, To: supervisor.TaskCancelled, Actor: "cli"}); err != nil {
			t.Fatal(err)
		}
		h := startWith(t, func(o *Options) {
			o.Board = rb
			o.Workspaces = ws
		}, project("web", 5*time.Minute, 5*time.Minute))
		ws.finish.Store(true)
		w, ok, err := h.st.Tasks.TaskWork(h.ctx, task.ID)
		if err != nil || !ok || len(w.Commits) != 1 {
			t.Errorf("the task's work read as it went on record: %+v %v %v, want its one commit", w, ok, err)
		}
	})
}
