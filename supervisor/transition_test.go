package supervisor

import (
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"
)

// The moves the station, the CLI and agents make, each tried from every
// state: to lists where it takes a task from todo, working, review,
// blocked, done and cancelled, in that order ("": refused, the task is
// left as it was).
func TestApplyEveryStateAndMove(t *testing.T) {
	from := func(s ...TaskState) []TaskState { return s }
	moves := []struct {
		name string
		m    Move
		to   [6]TaskState
	}{
		{"claim", Move{From: from(TaskTodo), To: TaskWorking, Actor: "station"},
			[6]TaskState{TaskWorking, "", "", "", "", ""}},
		{"agent done", Move{From: from(TaskWorking), To: TaskReview, Summary: "did it", Actor: "agent", KeepLease: true},
			[6]TaskState{"", TaskReview, "", "", "", ""}},
		{"agent blocked", Move{From: from(TaskWorking, TaskReview), To: TaskBlocked, Reason: "agent: stuck", Actor: "agent"},
			[6]TaskState{"", TaskBlocked, TaskBlocked, "", "", ""}},
		{"watchdog block", Move{From: from(TaskWorking), To: TaskBlocked, Reason: "silent", Actor: "watchdog"},
			[6]TaskState{"", TaskBlocked, "", "", "", ""}},
		{"review pass", Move{From: from(TaskReview), To: TaskDone, Actor: "reviewer"},
			[6]TaskState{"", "", TaskDone, "", "", ""}},
		{"review round", Move{From: from(TaskReview), To: TaskTodo, BumpAttempt: true, Note: "fix the tests", Actor: "reviewer"},
			[6]TaskState{"", "", TaskTodo, "", "", ""}},
		{"lease lost", Move{From: from(TaskWorking), To: TaskTodo, BumpAttempt: true, Actor: "station"},
			[6]TaskState{"", TaskTodo, "", "", "", ""}},
		{"requeue", Move{From: from(TaskBlocked, TaskCancelled), To: TaskTodo, BumpAttempt: true, Actor: "cli"},
			[6]TaskState{"", "", "", TaskTodo, "", TaskTodo}},
		{"cancel", Move{From: from(TaskTodo, TaskWorking, TaskReview, TaskBlocked), To: TaskCancelled, Reason: "not needed", Actor: "cli"},
			[6]TaskState{TaskCancelled, TaskCancelled, TaskCancelled, TaskCancelled, "", ""}},
		{"to the same state", Move{From: from(TaskWorking), To: TaskWorking, BumpAttempt: true, Actor: "peer"},
			[6]TaskState{"", TaskWorking, "", "", "", ""}},
	}
	prev := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	at := prev.Add(time.Minute)
	for _, mv := range moves {
		for i, st := range TaskStates {
			cur := Task{ID: "t7", Project: "p", Title: "x", State: st, Attempt: 2, Reason: "old", Summary: "before",
				Notes: []string{"n1"}, CreatedAt: prev, UpdatedAt: prev, Pinned: "alpha"}
			got, tr, err := cur.Apply(mv.m, at)
			want := mv.to[i]
			if want == "" {
				var se *StateError
				if !errors.As(err, &se) || !errors.Is(err, ErrConflict) || se.Have != st || !slices.Equal(se.Want, mv.m.From) {
					t.Errorf("%s from %s: err %v, want a *StateError (have %s, want %v)", mv.name, st, err, st, mv.m.From)
				}
				if got.ID != "" || tr != (Transition{}) {
					t.Errorf("%s from %s: refused, yet returned %+v, %+v", mv.name, st, got, tr)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s from %s: %v", mv.name, st, err)
				continue
			}
			w := cur
			w.State, w.Reason, w.UpdatedAt = want, mv.m.Reason, at
			if mv.m.Summary != "" {
				w.Summary = mv.m.Summary
			}
			if mv.m.Note != "" {
				w.Notes = []string{"n1", mv.m.Note}
			}
			if mv.m.BumpAttempt {
				w.Attempt = 3
			}
			if !sameTask(got, w) {
				t.Errorf("%s from %s:\n got %+v\nwant %+v", mv.name, st, got, w)
			}
			wtr := Transition{TaskID: "t7", From: st, To: want, Attempt: w.Attempt, Reason: mv.m.Reason, Actor: mv.m.Actor, At: at}
			if tr != wtr {
				t.Errorf("%s from %s: transition\n got %+v\nwant %+v", mv.name, st, tr, wtr)
			}
			if !slices.Equal(cur.Notes, []string{"n1"}) {
				t.Errorf("%s from %s: the task applied to changed its notes to %q", mv.name, st, cur.Notes)
			}
		}
	}
}

// sameTask compares every field, so a field added to Task later is held
// to "a move leaves it as it was" without a change here.
func sameTask(a, b Task) bool { return reflect.DeepEqual(a, b) }

// TestApplyRules covers what the matrix above does not: a move's own
// validity, the run it is for, and the clock.
func TestApplyRules(t *testing.T) {
	prev := time.Date(2026, 3, 1, 12, 0, 0, 5_000_000, time.UTC)
	working := Task{ID: "t3", State: TaskWorking, Attempt: 2, Reason: "r", Summary: "s", CreatedAt: prev, UpdatedAt: prev}
	toReview := Move{From: []TaskState{TaskWorking}, To: TaskReview}
	with := func(m Move, f func(*Move)) Move { f(&m); return m }
	cases := []struct {
		name    string
		m       Move
		at      time.Time
		err     func(error) bool // nil: no error
		updated time.Time
		reason  string
		summary string
	}{
		{name: "clears the reason, keeps the summary", m: toReview, at: prev.Add(time.Second), updated: prev.Add(time.Second), summary: "s"},
		{name: "the run it is for", m: with(toReview, func(m *Move) { m.Attempt = 2 }), at: prev.Add(time.Second), updated: prev.Add(time.Second), summary: "s"},
		{name: "a late report of an earlier run", m: with(toReview, func(m *Move) { m.Attempt = 1 }), at: prev.Add(time.Second),
			err: func(err error) bool {
				var ae *AttemptError
				return errors.As(err, &ae) && ae.Have == 2 && ae.Want == 1 && errors.Is(err, ErrConflict)
			}},
		{name: "unknown state", m: Move{From: []TaskState{TaskWorking}, To: "doing"}, at: prev.Add(time.Second),
			err: func(err error) bool {
				return err != nil && err.Error() == `unknown state "doing"` && !errors.Is(err, ErrConflict)
			}},
		{name: "no from-state", m: Move{To: TaskDone}, at: prev.Add(time.Second),
			err: func(err error) bool { return err != nil && err.Error() == "a move needs at least one from-state" }},
		{name: "same millisecond", m: toReview, at: prev.Add(400 * time.Microsecond), updated: prev.Add(time.Millisecond), summary: "s"},
		{name: "clock stepped back", m: toReview, at: prev.Add(-time.Hour), updated: prev.Add(time.Millisecond), summary: "s"},
		{name: "to the millisecond, in UTC", m: toReview, at: prev.Add(time.Second + 999*time.Microsecond).In(time.FixedZone("X", 3600)),
			updated: prev.Add(time.Second), summary: "s"},
	}
	for _, c := range cases {
		got, tr, err := working.Apply(c.m, c.at)
		if c.err != nil {
			if !c.err(err) {
				t.Errorf("%s: unexpected error %v", c.name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !got.UpdatedAt.Equal(c.updated) || got.UpdatedAt.Location() != time.UTC || !tr.At.Equal(got.UpdatedAt) {
			t.Errorf("%s: UpdatedAt %v, At %v; want %v in UTC", c.name, got.UpdatedAt, tr.At, c.updated)
		}
		if got.Reason != c.reason || got.Summary != c.summary {
			t.Errorf("%s: reason %q summary %q, want %q %q", c.name, got.Reason, got.Summary, c.reason, c.summary)
		}
	}
}
