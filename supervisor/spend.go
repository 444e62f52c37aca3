package supervisor

import "context"

// Spend is one reading of what a session cost, counted toward its
// project's day and its task. Amounts are millionths of a dollar, so sums
// on the board are exact.
type Spend struct {
	Day     string // the budget's day: the station's local date, 2006-01-02
	Project string
	TaskID  string
	Micro   int64 // this reading's cost
	// Budget is the project's daily budget (0: none): the addition that
	// brings the day to it pauses the project.
	Budget int64
}

// MaxSpendMicro bounds one reading of a spend ($1.1 billion): a board
// takes no more at once, and MaxSpendSum bounds a day's or a task's sum,
// where it saturates. Both leave room below int64's end, so no sum wraps
// to a negative: spend never goes down.
const (
	MaxSpendMicro int64 = 1 << 50
	MaxSpendSum   int64 = 1 << 60
)

// SpendBoard is a board that keeps what projects and tasks cost, so that
// a restarted station's budgets go on from what was spent (both SQL boards;
// on a shared board the day's count is every station's).
type SpendBoard interface {
	// AddSpend adds s to its project's day and its task, and returns the
	// day's total. pause is true for the one addition that brings the day
	// to s.Budget when no pause and no lift were recorded that day: the
	// caller pauses the project, once, whichever station added it.
	AddSpend(ctx context.Context, s Spend) (day int64, pause bool, err error)
	// LiftBudget records that a person resumed project past its budget
	// for the rest of day: no addition pauses it again that day. A day its
	// budget did not pause is left as it is.
	LiftBudget(ctx context.Context, day, project string) error
	// SpentOn is each project's cost on day.
	SpentOn(ctx context.Context, day string) (map[string]int64, error)
	// TaskSpent is what task id's sessions cost so far (0 for a task
	// with none).
	TaskSpent(ctx context.Context, id string) (int64, error)
}
