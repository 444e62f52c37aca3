package rig

import (
	"testing"
	"time"
)

// Lines as the station's slog text handler writes them.
func TestParseWatchdog(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 5, 123000000, time.UTC)
	silent := at.Add(-5 * time.Minute)
	for _, tt := range []struct {
		line string
		want WatchdogEvent
		ok   bool
	}{
		{`time=2026-12-01T10:00:05.123Z level=INFO msg=nudged session=t12.3 silent_since=2026-12-01T09:55:05.123Z`,
			WatchdogEvent{At: at, Nudged: true, Task: "t12", Session: "t12.3", Silent: silent}, true},
		{`time=2026-12-01T10:00:05.123Z level=WARN msg="task blocked" task=t7 reason="watchdog: silent"`,
			WatchdogEvent{At: at, Task: "t7"}, true},
		// Nudged before any output: no moment to measure from.
		{`time=2026-12-01T10:00:05.123Z level=INFO msg=nudged session=t1.1 silent_since="no output yet"`, WatchdogEvent{}, false},
		{`time=2026-12-01T10:00:05.123Z level=INFO msg="session started" session=t1.1`, WatchdogEvent{}, false},
		{`not a log line`, WatchdogEvent{}, false},
	} {
		got, ok := ParseWatchdog(tt.line)
		if ok != tt.ok || got != tt.want {
			t.Errorf("ParseWatchdog(%q) = %+v, %v; want %+v, %v", tt.line, got, ok, tt.want, tt.ok)
		}
	}
}
