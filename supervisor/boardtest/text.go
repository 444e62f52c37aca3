package boardtest

import (
	"context"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
)

// testText holds both boards to one rule for text they cannot keep as it
// came: a NUL (PostgreSQL refuses it in text) and invalid UTF-8 (PostgreSQL
// refuses it, SQLite keeps the bytes) become U+FFFD on every board, and a
// move carrying them still happens: a block with any reason blocks.
func testText(t *testing.T, b supervisor.Board) {
	ctx := context.Background()
	task, err := b.AddTask(ctx, supervisor.NewTask{Project: "p", Title: "nul\x00title", Body: "bad \xff utf-8"})
	if err != nil {
		t.Fatalf("AddTask with a NUL in the title: %v", err)
	}
	if task.Title != "nul\uFFFDtitle" || task.Body != "bad \uFFFD utf-8" {
		t.Errorf("AddTask kept title %q, body %q; want the NUL and the bad byte as U+FFFD", task.Title, task.Body)
	}
	sameTask(t, "Task after AddTask", get(t, b, task.ID), task)

	move(t, b, task.ID, supervisor.Move{From: from(supervisor.TaskTodo), To: supervisor.TaskWorking, Actor: "station"})
	got, err := b.Move(ctx, task.ID, supervisor.Move{From: from(supervisor.TaskWorking), To: supervisor.TaskBlocked,
		Reason: "stuck\x00here", Summary: "half\xfe", Note: "n\x00", Actor: "agent"})
	if err != nil {
		t.Fatalf("block with a NUL in the reason: %v", err)
	}
	if got.State != supervisor.TaskBlocked || got.Reason != "stuck\uFFFDhere" || got.Summary != "half\uFFFD" ||
		len(got.Notes) != 1 || got.Notes[0] != "n\uFFFD" {
		t.Errorf("after the block: %+v; want blocked, the NUL and the bad byte as U+FFFD", got)
	}
	sameTask(t, "Task after the block", get(t, b, task.ID), got)
	h := history(t, b, task.ID)
	if last := h[len(h)-1]; last.Reason != "stuck\uFFFDhere" {
		t.Errorf("history keeps reason %q, want %q", last.Reason, "stuck\uFFFDhere")
	}
}
