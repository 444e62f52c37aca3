package supervisor

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"
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

var _ Pinner = (*pinMem)(nil)

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
		task, _ := b.AddTask(ctx, NewTask{Project: "web", Title: "theirs"})
		b.memBoard.mu.Lock()
		b.memBoard.tasks[task.ID].State, b.memBoard.tasks[task.ID].Pinned = TaskBlocked, "buildbox"
		b.memBoard.mu.Unlock()
		if got := h.task(task.ID).PinNote(); got != "pinned to station buildbox: its work is only there" {
			t.Fatalf("PinNote = %q", got)
		}

		_, err := h.st.Requeue(ctx, task.ID, "")
		want := "task " + task.ID + " is pinned to station buildbox: its work is only there; requeue it at that station, or with --anywhere"
		if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), want) {
			t.Fatalf("Requeue = %v; want %q", err, want)
		}
		if got := h.task(task.ID); got.State != TaskBlocked || got.Pinned != "buildbox" {
			t.Fatalf("refused requeue changed the task: %+v", got)
		}

		got, err := h.st.RequeueAnywhere(ctx, task.ID, "its station burned down")
		if err != nil {
			t.Fatal(err)
		}
		if got.State != TaskTodo || got.Pinned != "" || len(b.unpins) != 1 || b.unpins[0] != task.ID+" any" {
			t.Fatalf("after RequeueAnywhere: %+v, unpins %v", got, b.unpins)
		}
	})
}
