package store

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// A listing is served while a transition holds the writer: reads come from
// their own pool of connections and never queue behind a write.
func TestReadsDoNotWaitForTheWriter(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	added, err := s.AddTask(ctx, supervisor.NewTask{Project: "p", Title: "first"})
	if err != nil {
		t.Fatal(err)
	}
	tx, err := s.db.BeginTx(ctx, nil) // the writer, held open
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE tasks SET title = 'uncommitted'"); err != nil {
		t.Fatal(err)
	}

	// Generous: a loaded machine still answers a one-row read in far less.
	rctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 16 {
		wg.Go(func() {
			tasks, err := s.Tasks(rctx, supervisor.TaskFilter{})
			if err == nil && (len(tasks) != 1 || tasks[0].Title != "first") {
				t.Errorf("Tasks = %+v, want the committed %s only", tasks, added.ID)
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("a read waited for the open write transaction: %v", err)
		}
	}
}

// The read pool cannot write: a write through it would race the writer.
func TestReadPoolIsReadOnly(t *testing.T) {
	s := openTemp(t)
	if _, err := s.rd.Exec("DELETE FROM tasks"); err == nil {
		t.Fatal("a write through the read pool succeeded")
	}
}
