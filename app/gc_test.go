package app

import (
	"runtime/debug"
	"testing"
)

// TestUICollectsAtHalfTheHeap: the UI's process lets its heap grow half
// its live size between collections, not Go's default of all of it (a
// console under fast output makes garbage that fills whatever room the
// collector leaves, and that room is the process's RSS), unless the
// person running it chose with GOGC.
func TestUICollectsAtHalfTheHeap(t *testing.T) {
	prev := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(prev) })

	t.Setenv("GOGC", "")
	newTestUI(t, nil, t0)
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Errorf("after New the GC percent is %d, want %d", got, gcPercent)
	}

	t.Setenv("GOGC", "100")
	debug.SetGCPercent(77) // what the runtime made of the person's GOGC
	newTestUI(t, nil, t0)
	if got := debug.SetGCPercent(100); got != 77 {
		t.Errorf("with GOGC set, New changed the GC percent to %d; it is the person's", got)
	}
}
