package pgstore

import (
	"strconv"
	"strings"
)

// Task ids are "t" and the row id, as in the SQLite store: short to type in
// a CLI, and a BIGSERIAL value is never handed out twice, so an old id in a
// log never names a new task.

func taskID(n int64) string { return "t" + strconv.FormatInt(n, 10) }

// parseTaskID is taskID's inverse; it accepts only ids taskID makes ("t07"
// is not "t7"), so one task has one name.
func parseTaskID(id string) (int64, bool) {
	rest, ok := strings.CutPrefix(id, "t")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(rest, 10, 64)
	if err != nil || n <= 0 || taskID(n) != id {
		return 0, false
	}
	return n, true
}
