package boardtest

import (
	"context"
	"maps"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
)

// The board keeps what was spent: a project's day adds up exactly, the
// addition that reaches the budget pauses once, a lift holds for the rest
// of the day, another day starts afresh, and a task's cost adds up across
// days. A station restarted on the board reads them back (that is all a
// restart is to the board: another reader).
func testSpend(t *testing.T, b supervisor.Board) {
	ctx := context.Background()
	sb, ok := b.(supervisor.SpendBoard)
	if !ok {
		t.Fatalf("%T keeps no spend: a restarted station would reset its budgets", b)
	}
	t1, t2 := add(t, b, "web", "one"), add(t, b, "web", "two")
	const d1, d2 = "2026-12-01", "2026-12-02"
	const budget = 10_000_000 // $10
	steps := []struct {
		day, project, task string
		micro              int64
		wantDay            int64
		wantPause          bool
	}{
		{d1, "web", t1.ID, 6_000_000, 6_000_000, false},
		{d1, "api", t1.ID, 1, 1, false},
		{d1, "web", t2.ID, 3_999_999, 9_999_999, false},
		{d1, "web", t2.ID, 1, 10_000_000, true}, // reaches $10: pause, once
		{d1, "web", t1.ID, 5, 10_000_005, false},
		{d2, "web", t1.ID, 12_330_000, 12_330_000, true}, // another day
	}
	for _, s := range steps {
		day, pause, err := sb.AddSpend(ctx, supervisor.Spend{Day: s.day, Project: s.project, TaskID: s.task, Micro: s.micro, Budget: budget})
		if err != nil || day != s.wantDay || pause != s.wantPause {
			t.Fatalf("AddSpend(%s %s %s %d) = %d, %v, %v; want %d, %v", s.day, s.project, s.task, s.micro, day, pause, err, s.wantDay, s.wantPause)
		}
	}
	if got, err := sb.SpentOn(ctx, d1); err != nil || !maps.Equal(got, map[string]int64{"web": 10_000_005, "api": 1}) {
		t.Errorf("SpentOn(%s) = %v, %v", d1, got, err)
	}
	if got, err := sb.SpentOn(ctx, "2026-11-30"); err != nil || len(got) != 0 {
		t.Errorf("SpentOn a day with none = %v, %v", got, err)
	}
	if got, err := sb.TaskSpent(ctx, t1.ID); err != nil || got != 6_000_000+1+5+12_330_000 {
		t.Errorf("TaskSpent(%s) = %d, %v", t1.ID, got, err)
	}
	if got, err := sb.TaskSpent(ctx, t2.ID); err != nil || got != 4_000_000 {
		t.Errorf("TaskSpent(%s) = %d, %v", t2.ID, got, err)
	}
	if got, err := sb.TaskSpent(ctx, "t999"); err != nil || got != 0 {
		t.Errorf("TaskSpent of a task with none = %d, %v", got, err)
	}
	// A person lifts a day's budget pause: the day goes on unpaused. A
	// lift with no budget pause that day (a resume after the breaker)
	// lifts nothing: the budget still pauses when it is reached.
	const d3 = "2026-12-03"
	if err := sb.LiftBudget(ctx, d3, "web"); err != nil {
		t.Fatal(err)
	}
	if _, pause, err := sb.AddSpend(ctx, supervisor.Spend{Day: d3, Project: "web", TaskID: t1.ID, Micro: 20_000_000, Budget: budget}); err != nil || !pause {
		t.Errorf("a lift before any budget pause kept the budget from pausing: %v, %v", pause, err)
	}
	if err := sb.LiftBudget(ctx, d2, "web"); err != nil {
		t.Fatal(err)
	}
	if _, pause, err := sb.AddSpend(ctx, supervisor.Spend{Day: d2, Project: "web", TaskID: t1.ID, Micro: 1, Budget: budget}); err != nil || pause {
		t.Errorf("a lifted day paused again: %v, %v", pause, err)
	}
	// No budget: never a pause.
	if _, pause, err := sb.AddSpend(ctx, supervisor.Spend{Day: d1, Project: "docs", Micro: 99_000_000}); err != nil || pause {
		t.Errorf("no budget paused: %v, %v", pause, err)
	}
}
