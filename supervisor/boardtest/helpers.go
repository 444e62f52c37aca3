package boardtest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// clockSlack is how far a board's timestamps may sit from the test's clock:
// a server-side board stamps with the server's clock.
const clockSlack = time.Minute

func add(t *testing.T, b supervisor.Board, project, title string) supervisor.Task {
	t.Helper()
	task, err := b.AddTask(context.Background(), supervisor.NewTask{Project: project, Title: title, Body: "body of " + title})
	if err != nil {
		t.Fatalf("AddTask(%s, %s): %v", project, title, err)
	}
	return task
}

func move(t *testing.T, b supervisor.Board, id string, m supervisor.Move) supervisor.Task {
	t.Helper()
	task, err := b.Move(context.Background(), id, m)
	if err != nil {
		t.Fatalf("Move(%s, %v→%s): %v", id, m.From, m.To, err)
	}
	return task
}

func get(t *testing.T, b supervisor.Board, id string) supervisor.Task {
	t.Helper()
	task, err := b.Task(context.Background(), id)
	if err != nil {
		t.Fatalf("Task(%s): %v", id, err)
	}
	return task
}

func history(t *testing.T, b supervisor.Board, id string) []supervisor.Transition {
	t.Helper()
	h, err := b.History(context.Background(), id)
	if err != nil {
		t.Fatalf("History(%s): %v", id, err)
	}
	return h
}

func from(s ...supervisor.TaskState) []supervisor.TaskState { return s }

// sameTask compares every field; times by instant and location, nil and
// empty Notes alike.
func sameTask(t *testing.T, what string, got, want supervisor.Task) {
	t.Helper()
	if got.ID != want.ID || got.Project != want.Project || got.Title != want.Title || got.Body != want.Body ||
		got.State != want.State || got.Attempt != want.Attempt || got.Reason != want.Reason ||
		got.Summary != want.Summary || !slices.Equal(got.Notes, want.Notes) ||
		!sameTime(got.CreatedAt, want.CreatedAt) || !sameTime(got.UpdatedAt, want.UpdatedAt) ||
		(got.External == nil) != (want.External == nil) || got.External != nil && *got.External != *want.External {
		t.Errorf("%s:\n got  %+v\n want %+v", what, got, want)
	}
}

func sameTime(a, b time.Time) bool { return a.Equal(b) && a.Location() == b.Location() }

// checkStamp asserts at is a UTC time the board took between before and
// after (give or take clockSlack).
func checkStamp(t *testing.T, what string, at, before, after time.Time) {
	t.Helper()
	if at.Location() != time.UTC {
		t.Errorf("%s = %v: not UTC", what, at)
	}
	if at.Before(before.Add(-clockSlack)) || at.After(after.Add(clockSlack)) {
		t.Errorf("%s = %v, not between %v and %v", what, at, before, after)
	}
}

// ms is the precision the suite asks a board to keep (SQLite stores ms).
func ms(t time.Time) time.Time { return t.UTC().Truncate(time.Millisecond) }
