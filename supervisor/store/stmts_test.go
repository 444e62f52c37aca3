package store

import (
	"fmt"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
)

// A listing's statement is prepared once and kept; what changes between
// listings (a cursor, a state) is an argument, so listings at every cursor
// share it. Past maxStmts texts, queries still run, unkept.
func TestReadStatementsArePreparedOnce(t *testing.T) {
	s := openTemp(t)
	ctx := t.Context()
	for i := range 5 {
		if _, err := s.AddTask(ctx, supervisor.NewTask{Project: "p", Title: fmt.Sprint("task ", i)}); err != nil {
			t.Fatal(err)
		}
	}
	kept := func() int {
		s.stmts.mu.Lock()
		defer s.stmts.mu.Unlock()
		return len(s.stmts.m)
	}
	before := kept()
	for i := 1; i <= 5; i++ {
		page, err := s.Tasks(ctx, supervisor.TaskFilter{Limit: 2, Newest: true, After: fmt.Sprintf("t%d", i)})
		if err != nil || len(page) != min(i-1, 2) {
			t.Fatalf("page after t%d: %d tasks, %v", i, len(page), err)
		}
	}
	if n := kept() - before; n != 1 {
		t.Errorf("listings at five cursors kept %d statements, want one", n)
	}
	for i := range maxStmts + 5 {
		var got int
		if err := (readConn{s}).QueryRow(ctx, fmt.Sprintf("SELECT %d", i)).Scan(&got); err != nil || got != i {
			t.Fatalf("SELECT %d = %d, %v", i, got, err)
		}
	}
	if n := kept(); n != maxStmts {
		t.Errorf("%d statements kept, want at most maxStmts (%d)", n, maxStmts)
	}
}
