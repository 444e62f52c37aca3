package station

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// pinMem is a sharedMem whose tasks can be pinned, as pgstore's are.
type pinMem struct {
	*sharedMem
	unpins []string // "id any" or "id"
}

func (b *pinMem) Pin(_ context.Context, id string) error {
	b.memBoard.mu.Lock()
	defer b.memBoard.mu.Unlock()
	b.memBoard.tasks[id].Pinned = b.name
	return nil
}

func (b *pinMem) Unpin(_ context.Context, id string, anyStation bool) error {
	b.memBoard.mu.Lock()
	defer b.memBoard.mu.Unlock()
	t := b.memBoard.tasks[id]
	if anyStation || t.Pinned == b.name {
		t.Pinned = ""
	}
	if anyStation {
		id += " any"
	}
	b.unpins = append(b.unpins, id)
	return nil
}

var _ supervisor.Pinner = (*pinMem)(nil)

// A blocked task pinned to another station is not requeued here: its work
// is only there, and the refusal says what to do. With anywhere the pin is
// lifted, the next session told where the rest of the work is.
func TestRequeueOfATaskPinnedElsewhere(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := &pinMem{sharedMem: newSharedMem("A")}
		h := startWith(t, func(o *Options) {
			o.Board = b
			o.Config.Lease = 3 * time.Second
		}, project("web", time.Minute, time.Minute))
		h.board = b.memBoard
		ctx := context.Background()
		task, _ := b.AddTask(ctx, supervisor.NewTask{Project: "web", Title: "theirs"})
		b.memBoard.mu.Lock()
		b.memBoard.tasks[task.ID].State, b.memBoard.tasks[task.ID].Pinned = supervisor.TaskBlocked, "buildbox"
		b.memBoard.mu.Unlock()
		if got := h.task(task.ID).PinNote(); got != "pinned to station buildbox: its work is only there" {
			t.Fatalf("PinNote = %q", got)
		}

		_, err := h.st.Tasks.Requeue(ctx, task.ID, "")
		want := "task " + task.ID + " is pinned to station buildbox: its work is only there; requeue it at that station, or with --anywhere"
		if !errors.Is(err, supervisor.ErrConflict) || !strings.Contains(err.Error(), want) {
			t.Fatalf("Requeue = %v; want %q", err, want)
		}
		if got := h.task(task.ID); got.State != supervisor.TaskBlocked || got.Pinned != "buildbox" {
			t.Fatalf("refused requeue changed the task: %+v", got)
		}

		got, err := h.st.Tasks.RequeueAnywhere(ctx, task.ID, "its station burned down")
		if err != nil {
			t.Fatal(err)
		}
		if got.State != supervisor.TaskTodo || got.Pinned != "" || len(b.unpins) != 1 || b.unpins[0] != task.ID+" any" {
			t.Fatalf("after RequeueAnywhere: %+v, unpins %v", got, b.unpins)
		}
	})
}

// fakeWorkspaces is a git project's Workspaces whose remote answers as the
// test says (platform/gitwt's own tests drive real git).
type fakeWorkspaces struct {
	mu        sync.Mutex
	synced    supervisor.Synced
	syncErr   error
	pub       supervisor.Published
	pubErr    error
	publishes int
}

func (f *fakeWorkspaces) Prepare(_ context.Context, p supervisor.Repo, id string) (supervisor.Workspace, error) {
	return supervisor.Workspace{Dir: p.Path, Git: true, Branch: "bs/b1/" + id}, nil
}

func (f *fakeWorkspaces) Resume(context.Context, supervisor.Repo, string, int) (supervisor.Resumed, error) {
	return supervisor.Resumed{Green: "0123456789abcdef"}, nil
}

func (f *fakeWorkspaces) Remove(context.Context, supervisor.Repo, string) error { return nil }

func (f *fakeWorkspaces) HeadGate(context.Context, supervisor.Repo, string, bool) (supervisor.GateVerdict, bool, error) {
	return supervisor.GateVerdict{}, false, nil
}

func (f *fakeWorkspaces) Work(context.Context, supervisor.Repo, string) (supervisor.TaskWork, bool, error) {
	return supervisor.TaskWork{}, false, nil
}

func (f *fakeWorkspaces) Diff(context.Context, supervisor.Repo, string, bool) (string, error) {
	return "", nil
}

func (f *fakeWorkspaces) DiffRange(context.Context, supervisor.Repo, string, string, bool) (string, error) {
	return "", nil
}

func (f *fakeWorkspaces) Merge(context.Context, supervisor.Repo, string, string) (supervisor.Merged, error) {
	return supervisor.Merged{}, nil
}

func (f *fakeWorkspaces) Sync(context.Context, supervisor.Repo, string) (supervisor.Synced, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.synced, f.syncErr
}

func (f *fakeWorkspaces) Publish(context.Context, supervisor.Repo, string) (supervisor.Published, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.publishes++
	return f.pub, f.pubErr
}

func startPinned(t *testing.T, b *pinMem, ws *fakeWorkspaces) *harness {
	t.Helper()
	p := project("web", time.Minute, time.Minute)
	// Two slots: sharedMem keeps a blocked task's lease, which pgstore
	// ends with the move.
	p.Remote, p.Concurrency = "origin", 2
	h := startWith(t, func(o *Options) {
		o.Board = b
		o.Config.Lease = 3 * time.Second
		o.Workspaces = ws
	}, p)
	h.board = b.memBoard
	return h
}

// A session that takes up another station's pushed work is told so in its
// prompt; its task is pinned here while it runs, and the push at its end
// lifts the pin.
func TestSessionTakesUpPushedWork(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := &pinMem{sharedMem: newSharedMem("B")}
		ws := &fakeWorkspaces{
			synced: supervisor.Synced{Remote: "origin", Fetched: true, From: "0123456789abcdef", FromSubject: "c1 green"},
			pub:    supervisor.Published{Remote: "origin", Pushed: []string{"bs/b1/t1"}, Complete: true},
		}
		h := startPinned(t, b, ws)
		task := h.add("web", "a")
		p := h.proc()
		if got := h.task(task.ID).Pinned; got != "B" {
			t.Fatalf("running task pinned to %q, want B", got)
		}
		prompt, err := os.ReadFile(filepath.Join(h.st.opt.Home, "logs", task.ID+".1.prompt.md"))
		want := `This attempt runs on station B, which fetched the task's branch from the remote origin: your worktree starts at the last green commit 0123456789 "c1 green"`
		if err != nil || !strings.Contains(string(prompt), want) {
			t.Fatalf("prompt lacks %q (%v):\n%s", want, err, prompt)
		}
		p.exit(1)
		if got := h.task(task.ID); got.State != supervisor.TaskBlocked || got.Pinned != "" {
			t.Fatalf("after the session's end and push: %s, pinned %q; want blocked, unpinned", got.State, got.Pinned)
		}
		if ws.publishes == 0 {
			t.Fatal("nothing was pushed at the session's end")
		}
	})
}

// A push that fails keeps the task pinned here and says so in status.
func TestFailedPushKeepsThePin(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := &pinMem{sharedMem: newSharedMem("B")}
		ws := &fakeWorkspaces{synced: supervisor.Synced{Remote: "origin"}, pub: supervisor.Published{Remote: "origin"}, pubErr: errors.New("push bs/b1/t1 to origin: could not read from remote")}
		h := startPinned(t, b, ws)
		task := h.add("web", "a")
		h.proc().exit(1)
		if got := h.task(task.ID); got.State != supervisor.TaskBlocked || got.Pinned != "B" {
			t.Fatalf("after a failed push: %s, pinned %q; want blocked, pinned to B", got.State, got.Pinned)
		}
		st, err := h.st.Control.Status(h.ctx)
		want := "cannot push task " + task.ID + ": push bs/b1/t1 to origin: could not read from remote; its work is safe on this station"
		if err != nil || !slices.ContainsFunc(st.Warnings, func(w string) bool { return strings.HasPrefix(w, want) }) {
			t.Fatalf("status warnings %q (%v); want %q", st.Warnings, err, want)
		}
	})
}

// A fetch that fails blocks a task that ran before (its work may be on the
// remote only); a new task starts without it.
func TestFailedFetch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := &pinMem{sharedMem: newSharedMem("B")}
		ctx := context.Background()
		again, _ := b.AddTask(ctx, supervisor.NewTask{Project: "web", Title: "ran before"})
		b.memBoard.tasks[again.ID].Attempt = 2
		ws := &fakeWorkspaces{synced: supervisor.Synced{Remote: "origin"}, syncErr: errors.New("fetch bs/b1/t1 from origin: could not read from remote")}
		h := startPinned(t, b, ws)
		got := h.task(again.ID)
		if got.State != supervisor.TaskBlocked || !strings.Contains(got.Reason, "cannot fetch the task's branches: fetch bs/b1/t1 from origin: could not read from remote; its last attempt's work may be on the remote only: requeue it when the remote answers") {
			t.Fatalf("attempt 2 after a failed fetch: %s %q", got.State, got.Reason)
		}
		fresh := h.add("web", "new")
		h.proc()
		if got := h.task(fresh.ID); got.State != supervisor.TaskWorking {
			t.Fatalf("a new task after a failed fetch is %s (%s), want working", got.State, got.Reason)
		}
	})
}
