package supervisor

import (
	"strconv"
	"strings"
)

// A task's id is "t" and its row number on the board: short to type in a
// CLI, and a board never hands a row number out twice (SQLite's
// AUTOINCREMENT, PostgreSQL's BIGSERIAL), so an old id in a log never
// names a new task.

// TaskID is the id of the task with row number n.
func TaskID(n int64) string { return "t" + strconv.FormatInt(n, 10) }

// ParseTaskID is TaskID's inverse; it accepts only ids TaskID makes ("t07"
// is not "t7"), so one task has one name.
func ParseTaskID(id string) (int64, bool) {
	rest, ok := strings.CutPrefix(id, "t")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(rest, 10, 64)
	if err != nil || n <= 0 || TaskID(n) != id {
		return 0, false
	}
	return n, true
}
