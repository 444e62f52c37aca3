package station

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// A watchdog's block reason is read by a person at a card, a notice and
// `task show`: it says the windows as a person would ("5 min"), not as a
// config key and a Go duration ("idle_window 5m0s").
func TestBlockReasonInPlainWords(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", 5*time.Minute, 5*time.Minute))
		task := h.add("web", "migrate")
		p := h.proc()
		p.say("Running migration 0042...\r\n")
		advance(5*time.Minute + time.Millisecond)
		advance(enterDelay)
		advance(5 * time.Minute)
		got := h.task(task.ID)
		if got.State != supervisor.TaskBlocked {
			t.Fatalf("task %v, want blocked", got.State)
		}
		head, _, _ := strings.Cut(got.Reason, "; ")
		if want := "watchdog: no output for 5 min, nudged, then 5 min more with no sign of life"; head != want {
			t.Errorf("reason starts %q, want %q", head, want)
		}
		for _, code := range []string{"idle_window", "block_window", "0s", "m0"} {
			if strings.Contains(got.Reason, code) {
				t.Errorf("reason says %q, a word of the code: %q", code, got.Reason)
			}
		}
		if !strings.Contains(got.Reason, "min ago)") {
			t.Errorf("reason says how long ago in minutes: %q", got.Reason)
		}
	})
}
