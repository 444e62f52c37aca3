package app

import (
	"testing"
	"time"
)

// A card whose station stopped says so, with the time, instead of
// claiming its task left the board.
func TestCardSaysTheStationStopped(t *testing.T) {
	at := time.Date(2026, 12, 2, 5, 41, 0, 0, time.Local)
	if got := missingTask(Snapshot{Connected: false, StoppedAt: at}, "t3"); got != "The station stopped at 05:41; start it to see task t3" {
		t.Errorf("stopped: %q", got)
	}
	if got := missingTask(Snapshot{Connected: true}, "t3"); got != "Task t3 is not on the board" {
		t.Errorf("connected: %q", got)
	}
}
