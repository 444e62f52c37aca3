package boardtest

import (
	"testing"

	"github.com/buildstation/buildstation/supervisor"
)

// Run runs the suite against boards open makes. open must return a new,
// empty board for each call and arrange its Close with t.Cleanup. Subtests
// run one after another, so a board backed by a shared server may reset it
// in open.
//
// Beyond the Board doc comments, the suite holds a board to: ids "t1",
// "t2", … in creation order on a new board; times in UTC that read back
// exactly as returned (millisecond precision is enough); a task's
// UpdatedAt strictly increasing with every move; a history row per
// transition whose At is the task's new UpdatedAt; Claim clearing Reason;
// a session record naming an unknown task refused with ErrNotFound.
func Run(t *testing.T, open func(t *testing.T) supervisor.Board) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.fn(t, open(t)) })
	}
}

var cases = []struct {
	name string
	fn   func(t *testing.T, b supervisor.Board)
}{
	{"AddTask", testAddTask},
	{"AddTaskIDs", testAddTaskIDs},
	{"AddTaskRejectsEmpty", testAddTaskRejectsEmpty},
	{"TaskNotFound", testTaskNotFound},
	{"TasksFilter", testTasksFilter},
	{"CountTasks", testCountTasks},
	{"CountsFollowWrites", testCountsFollowWrites},
	{"Move", testMove},
	{"MoveKeepsSummary", testMoveKeepsSummary},
	{"MoveConflict", testMoveConflict},
	{"MoveAttemptFence", testMoveAttemptFence},
	{"MoveNotFound", testMoveNotFound},
	{"MoveBadRequest", testMoveBadRequest},
	{"MoveRace", testMoveRace},
	{"History", testHistory},
	{"Claim", testClaim},
	{"ClaimNone", testClaimNone},
	{"ClaimRace", testClaimRace},
	{"Sessions", testSessions},
	{"SessionUnknownTask", testSessionUnknownTask},
	{"Paused", testPaused},
	{"Spend", testSpend},
	{"SpendNeverGoesDown", testSpendNeverGoesDown},
	{"Work", testWork},
	{"External", testExternal},
	{"EditTask", testEditTask},
	{"Text", testText},
}
