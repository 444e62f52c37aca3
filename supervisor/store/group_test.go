package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
)

// TestGroupCommit: a burst of concurrent adds shares commits, every add is
// on the board when its call returns, and a write that fails inside a
// shared transaction fails alone.
func TestGroupCommit(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	const n = 100
	var wg sync.WaitGroup
	ids := make([]string, n)
	errs := make([]error, n)
	bad := errors.New("this write fails")
	for i := range n {
		wg.Go(func() {
			if i%10 == 5 {
				errs[i] = s.write(ctx, func(tx *sql.Tx) error {
					if _, err := tx.ExecContext(ctx, "INSERT INTO paused (project, reason, at) VALUES ('x', 'y', 0)"); err != nil {
						return err
					}
					return bad
				})
				return
			}
			tk, err := s.AddTask(ctx, supervisor.NewTask{Project: "p", Title: fmt.Sprint("task ", i)})
			ids[i], errs[i] = tk.ID, err
			if err == nil {
				// Durable on return: a reader sees it at once.
				if _, err := s.Task(ctx, tk.ID); err != nil {
					errs[i] = fmt.Errorf("added %s but cannot read it: %w", tk.ID, err)
				}
			}
		})
	}
	wg.Wait()
	seen := map[string]bool{}
	for i, err := range errs {
		if i%10 == 5 {
			if !errors.Is(err, bad) {
				t.Errorf("failing write %d: %v, want its own error", i, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("add %d: %v", i, err)
		}
		if seen[ids[i]] {
			t.Fatalf("id %s given twice", ids[i])
		}
		seen[ids[i]] = true
	}
	all, err := s.Tasks(ctx, supervisor.TaskFilter{})
	if err != nil || len(all) != n-n/10 {
		t.Fatalf("board holds %d tasks (%v), want %d", len(all), err, n-n/10)
	}
	if p, _ := s.Paused(ctx); len(p) != 0 {
		t.Errorf("a failed write left its rows: %v", p)
	}
	if c := s.group.commits.Load(); c >= int64(len(all)) {
		t.Errorf("%d commits for %d concurrent adds: no write was grouped", c, len(all))
	} else {
		t.Logf("%d adds in %d commits", len(all), c)
	}
}
