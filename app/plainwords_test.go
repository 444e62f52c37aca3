package app

import (
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// The card's clock says durations as the rest of the app does, in plain
// words ("nudge in 5 min", "in 40 s"), never Go's ("4m59s"): the walk's
// working card read "nudge in 4m59s" right after the session started.
func TestCardClockSaysDurationsInPlainWords(t *testing.T) {
	now := t0.Add(time.Hour)
	at := func(d time.Duration) *time.Time { v := now.Add(d); return &v }
	for _, tt := range []struct {
		silent, left time.Duration
		action, want string
	}{
		{time.Second, 4*time.Minute + 59*time.Second, "nudge", "printing · nudge in 5 min"},
		{3*time.Minute + 12*time.Second, 40 * time.Second, "nudge", "silent 3 min · nudge in 40 s"},
		{6 * time.Minute, 3*time.Minute + 2*time.Second, "block", "silent 6 min · blocks in 3 min"},
		{45 * time.Second, time.Hour + 5*time.Minute, "check", "silent 45 s · check in 1 h 5 min"},
	} {
		si := supervisor.SessionInfo{ID: "t1.1", TaskID: "t1", State: supervisor.SessWorking,
			LastOutputAt: now.Add(-tt.silent), NextAt: at(tt.left), NextAction: tt.action}
		if got := CardFor(task("t1", supervisor.TaskWorking), &si, now).Timing; got != tt.want {
			t.Errorf("silent %v, %s in %v: the card says %q, want %q", tt.silent, tt.action, tt.left, got, tt.want)
		}
	}
}

// The Projects tab's line says a project's windows in words ("idle 5 min"),
// not as the station's JSON has them ("5m0s").
func TestProjectSummarySaysWindowsInPlainWords(t *testing.T) {
	got := ProjectSummary(supervisor.ProjectInfo{Name: "web", Agent: "claude", IdleWindow: "5m0s", BlockWindow: "1m30s", ReviewIdleWindow: "1h0m0s", Concurrency: 1})
	for _, want := range []string{"idle 5 min", "block 1 min 30 s", "review idle 1 h"} {
		if !strings.Contains(got, want) {
			t.Errorf("ProjectSummary = %q, want it to say %q", got, want)
		}
	}
	if strings.Contains(got, "0s") {
		t.Errorf("ProjectSummary = %q says a Go duration", got)
	}
}
