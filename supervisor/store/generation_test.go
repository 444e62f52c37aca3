package store

import (
	"context"
	"database/sql"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
)

// The board generation changes with every commit, the station's own and
// another process's alike, and stays put while nothing is written: an
// answer kept under a generation is the board's answer while it holds.
func TestGenerationFollowsEveryCommit(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	v := func() uint64 {
		t.Helper()
		n, err := s.Generation(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	v0 := v()
	if _, err := s.Tasks(ctx, supervisor.TaskFilter{}); err != nil {
		t.Fatal(err)
	}
	if v1 := v(); v1 != v0 {
		t.Fatalf("a read moved the generation from %d to %d", v0, v1)
	}
	if _, err := s.AddTask(ctx, supervisor.NewTask{Project: "p", Title: "first"}); err != nil {
		t.Fatal(err)
	}
	v1 := v()
	if v1 == v0 {
		t.Fatalf("the generation stayed %d after the station's own commit", v0)
	}
	// Another connection (another process: a CLI opening the file) commits.
	other, err := sql.Open("sqlite", dsn(s.path, defaultOptions()))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.ExecContext(ctx, "UPDATE tasks SET title = 'changed elsewhere'"); err != nil {
		t.Fatal(err)
	}
	if v2 := v(); v2 == v1 {
		t.Fatalf("the generation stayed %d after another connection's commit", v1)
	}
}
