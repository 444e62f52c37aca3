package station

import (
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// A station that wakes from a pause longer than its lease to find that a
// newer instance took its name over ends its own sessions the fenced way,
// starts nothing more, and stops with the reason: it is not that station
// any more.
func TestNameTakenEndsSessionsAndStops(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newSharedMem("dup")
		h := startFenced(t, b, &memOutbox{})
		task := h.add("web", "a")
		p := h.proc()
		h.add("web", "b") // queued: never started once the name is lost
		b.mu.Lock()
		b.nameTaken = fmt.Errorf("station name %q was taken over by a newer instance: %w", "dup", supervisor.ErrNameTaken)
		b.mu.Unlock()
		advance(time.Second) // lease 3s: the next renewal is within lease/3
		if p.stopCount() == 0 {
			t.Fatal("the session under a lost name still runs")
		}
		var err error
		select {
		case err = <-h.done:
		default:
			t.Fatal("the station goes on under a name a newer instance holds")
		}
		h.done <- err // for the harness's stop
		if !errors.Is(err, supervisor.ErrNameTaken) {
			t.Fatalf("Run = %v, want the name taken", err)
		}
		if n := len(h.sp.procs); n != 0 {
			t.Errorf("%d more sessions started under a lost name", n)
		}
		if got := h.task(task.ID); got.State != supervisor.TaskWorking {
			t.Errorf("task %s moved to %s by a process that lost its name", task.ID, got.State)
		}
	})
}
