package boardtest

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// The board keeps a task's work on record: what was saved reads back as
// it was, a later record replaces it, a merge is kept once (the first),
// and a task with none has no record.
func testWork(t *testing.T, b supervisor.Board) {
	ctx := context.Background()
	wb, ok := b.(supervisor.WorkBoard)
	if !ok {
		t.Fatalf("%T keeps no task's work: a merged task would forget what it changed", b)
	}
	t1, t2 := add(t, b, "web", "one"), add(t, b, "web", "two")
	if w, ok, err := wb.TaskWorkRecord(ctx, t1.ID); err != nil || ok || w.Merged != nil {
		t.Fatalf("TaskWorkRecord of a task with none = %+v, %v, %v", w, ok, err)
	}
	first := supervisor.TaskWork{Branch: "bs/b/" + t1.ID, Base: "aaaa", Head: "bbbb", Commits: []string{"bbbb second", "cccc first"}, DiffStat: "1 file changed, 2 insertions(+)"}
	if err := wb.SaveTaskWork(ctx, t1.ID, first); err != nil {
		t.Fatal(err)
	}
	if w, ok, err := wb.TaskWorkRecord(ctx, t1.ID); err != nil || !ok || !reflect.DeepEqual(w, first) {
		t.Fatalf("TaskWorkRecord = %+v, %v, %v; want %+v", w, ok, err, first)
	}
	again := supervisor.TaskWork{Branch: first.Branch, Base: "aaaa", Head: "dddd", Commits: []string{}}
	if err := wb.SaveTaskWork(ctx, t1.ID, again); err != nil {
		t.Fatal(err)
	}
	if w, ok, err := wb.TaskWorkRecord(ctx, t1.ID); err != nil || !ok || !reflect.DeepEqual(w, again) {
		t.Fatalf("TaskWorkRecord after a second record = %+v, %v, %v; want %+v", w, ok, err, again)
	}
	at := time.Date(2026, 12, 5, 10, 2, 3, 4_000_000, time.UTC)
	m := supervisor.MergeRecord{Into: "main", Commit: "dddd", At: at}
	if err := wb.SaveTaskMerged(ctx, t1.ID, m); err != nil {
		t.Fatal(err)
	}
	if err := wb.SaveTaskMerged(ctx, t1.ID, supervisor.MergeRecord{Into: "other", Commit: "eeee", At: at.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	w, ok, err := wb.TaskWorkRecord(ctx, t1.ID)
	if err != nil || !ok || w.Merged == nil || *w.Merged != m || w.Head != "dddd" {
		t.Fatalf("TaskWorkRecord after two merges = %+v (merged %+v), %v, %v; want the first merge %+v", w, w.Merged, ok, err, m)
	}
	// A merge with no work recorded (a task from before records) is kept.
	if err := wb.SaveTaskMerged(ctx, t2.ID, m); err != nil {
		t.Fatal(err)
	}
	if w, ok, err := wb.TaskWorkRecord(ctx, t2.ID); err != nil || ok || w.Merged == nil || *w.Merged != m {
		t.Fatalf("TaskWorkRecord of a merge alone = %+v, %v, %v", w, ok, err)
	}
	if err := wb.SaveTaskWork(ctx, "t999", first); err == nil {
		t.Errorf("SaveTaskWork of a task that does not exist succeeded")
	}
}
