package rig

import (
	"regexp"
	"strings"
	"time"
)

// The station's log (slog's text format) says when the watchdog nudged a
// session and when a task was blocked; the fault suite checks those moments
// against the idle windows, and the bench measures how late they came.
var (
	logTime   = regexp.MustCompile(`^time=(\S+)`)
	logNudged = regexp.MustCompile(` msg=nudged session=(\S+) .*silent_since=(\S+)`)
	logBlock  = regexp.MustCompile(` msg="task blocked" task=(\S+)`)
)

// WatchdogEvent is a line of a station's log that tells a nudge or a block.
type WatchdogEvent struct {
	At      time.Time
	Nudged  bool      // a nudge; else a block
	Task    string    // the task nudged (its session's) or blocked
	Session string    // a nudge's: the session nudged
	Silent  time.Time // a nudge's: the session's last output before it
}

// ParseWatchdog reads a line of the station's log as a nudge or a block;
// ok is false for any other line.
func ParseWatchdog(line string) (e WatchdogEvent, ok bool) {
	m := logTime.FindStringSubmatch(line)
	if m == nil {
		return e, false
	}
	at, err := time.Parse(time.RFC3339Nano, m[1])
	if err != nil {
		return e, false
	}
	if n := logNudged.FindStringSubmatch(line); n != nil {
		silent, err := time.Parse(time.RFC3339Nano, n[2])
		if err != nil {
			return e, false
		}
		return WatchdogEvent{At: at, Nudged: true, Task: TaskOfSession(n[1]), Session: n[1], Silent: silent}, true
	}
	if b := logBlock.FindStringSubmatch(line); b != nil {
		return WatchdogEvent{At: at, Task: b[1]}, true
	}
	return e, false
}

// TaskOfSession is the task of a session id: the id without its attempt
// (t12.3 → t12).
func TaskOfSession(id string) string {
	if i := strings.LastIndexByte(id, '.'); i >= 0 {
		return id[:i]
	}
	return id
}
