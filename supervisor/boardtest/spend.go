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

// Issue 33: an agent's hook reported 9e18 tokens; the float's overflow
// made a project's spend −9.22e18, the board added it, and the next
// session spent past its budget unpaused. A board refuses a negative
// spend (nothing added), and saturates a day's and a task's sums rather
// than wrap: spend never goes down.
func testSpendNeverGoesDown(t *testing.T, b supervisor.Board) {
	ctx := context.Background()
	sb, ok := b.(supervisor.SpendBoard)
	if !ok {
		t.Fatalf("%T keeps no spend", b)
	}
	t1 := add(t, b, "web", "one")
	const d = "2026-12-03"
	if _, _, err := sb.AddSpend(ctx, supervisor.Spend{Day: d, Project: "web", TaskID: t1.ID, Micro: 5_000_000, Budget: 10_000_000}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := sb.AddSpend(ctx, supervisor.Spend{Day: d, Project: "web", TaskID: t1.ID, Micro: -9_223_372_036_854_775_807, Budget: 10_000_000}); err == nil {
		t.Error("a negative spend was taken")
	}
	if got, _ := sb.SpentOn(ctx, d); got["web"] != 5_000_000 {
		t.Errorf("after a negative spend the day is %d, want 5000000", got["web"])
	}
	if got, _ := sb.TaskSpent(ctx, t1.ID); got != 5_000_000 {
		t.Errorf("after a negative spend the task is %d, want 5000000", got)
	}
	// The largest spends, again and again: the sum stays at its ceiling.
	var last int64
	for range 3 {
		day, _, err := sb.AddSpend(ctx, supervisor.Spend{Day: d, Project: "web", TaskID: t1.ID, Micro: 1 << 62, Budget: 10_000_000})
		if err != nil {
			t.Fatal(err)
		}
		if day < last || day <= 5_000_000 {
			t.Fatalf("the day went from %d to %d", last, day)
		}
		last = day
	}
	if got, _ := sb.TaskSpent(ctx, t1.ID); got < last/2 || got <= 0 {
		t.Errorf("the task's spend is %d after the largest spends", got)
	}
}
