package app

import (
	"os"
	"runtime/debug"
)

// gcPercent is the GOGC of the process that shows the UI: the collector
// runs when the heap has grown half its live size, not Go's default of
// all of it. A console under fast output makes garbage all the time (the
// emulator copies every line that scrolls off, about 70 MB/s under 1 MB/s
// of an agent's output), so the heap always reaches the collector's goal
// and the room above the live heap is resident. The tray bench's console
// figure (bench/tray; GOGC=100 in its environment gives the default back
// for comparison), on a loaded 2-core machine: one console under that
// output grew the process's RSS by 36-41 MB at 50 against 47-49 MB at the
// default in the same runs, the collector taking 5-7% of the CPU time
// instead of 3%, frames and click latency alike. Idle, the dashboard
// holds 10 MB less heap room above its live 19 MB. The goal stays
// proportional to what is live, so many consoles open cost collections,
// not thrashing as a fixed memory limit would.
const gcPercent = 50

// setGCPercent gives the process gcPercent, unless the person running it
// chose with GOGC.
func setGCPercent() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
}
