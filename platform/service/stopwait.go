package service

import (
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// StopMargin is how much longer than stop_grace a service manager waits
// for a stopping station before it kills it: the drain ends at stop_grace,
// then the station ends its sessions (gracefully, then their trees) and
// writes its state.
const StopMargin = 30 * time.Second

// StopWait is how long a service manager waits for a station whose
// stop_grace is grace to end on its own.
func StopWait(grace time.Duration) time.Duration { return max(grace, 0) + StopMargin }

// stopWait is StopWait of c's stop_grace.
func (c Config) stopWait() time.Duration { return StopWait(c.StopGrace) }

// checkpointEvery is how often a pending stop says it is still moving.
const checkpointEvery = 10 * time.Second

// stopPending reports a pending stop to the Service Control Manager
// until done closes or wait is over: the first report at once, then one
// every checkpointEvery with the next checkpoint, each with the whole wait
// as its hint. It says whether done closed in time.
func stopPending(wait time.Duration, done <-chan struct{}, report func(checkpoint uint32, hint time.Duration)) bool {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	tick := time.NewTicker(checkpointEvery)
	defer tick.Stop()
	var checkpoint uint32 = 1
	report(checkpoint, wait)
	for {
		select {
		case <-done:
			return true
		case <-deadline.C:
			return false
		case <-tick.C:
			checkpoint++
			report(checkpoint, wait)
		}
	}
}

// drainNote is service stop's first line where the service manager lets
// the station drain (systemctl waits for it: a quiet terminal is not a
// hang).
func (c Config) drainNote() Note {
	return Note{Text: "the station drains first: the sessions it would end get up to " + supervisor.Spoken(max(c.StopGrace, 0)) + " (stop_grace) to finish"}
}

// askFirstNote is the logon task's: schtasks /end can only terminate the
// station, so the station is asked to drain before it.
func (c Config) askFirstNote() Note {
	return Note{Text: "the station is asked to drain first: the sessions it would end get up to " + supervisor.Spoken(max(c.StopGrace, 0)) + " (stop_grace) to finish, then the task is ended"}
}

// AskToStop is the logon task's drain, between disabling the task (so its
// repetition starts no new station) and ending it: the running station
// is asked to drain, and waited for. It never fails the stop: a station
// that cannot be asked is ended as before.
type AskToStop struct {
	Wait time.Duration
	Ask  func(wait time.Duration) string
}

func (a AskToStop) Apply(System) (string, error) {
	if a.Ask == nil {
		return "no station to ask to drain", nil
	}
	return a.Ask(a.Wait), nil
}

func (a AskToStop) Describe() string {
	return "would ask the running station to drain, and wait up to " + a.Wait.String() + " for it to end"
}
