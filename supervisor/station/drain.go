package station

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// A station that stops never surprises: the first stop drains. No new
// session starts, and the running sessions a stop would end get a grace
// to finish (complete, block, exit) before the stop goes on as before.
// Sessions of a backend that outlives the station (tmux) need no grace:
// they keep running for the next station.

// Drain stops the scheduler starting sessions, and says in one sentence
// what happens now, for the person who pressed Ctrl-C: which sessions get
// grace to finish, and how to end them now; "" when none runs.
func (st *Station) Drain(grace time.Duration) string {
	st.sched.draining.Store(true)
	ending := st.endingOnStop()
	if len(ending) == 0 {
		return ""
	}
	return fmt.Sprintf("draining: no new task starts; %s (%s) %s up to %s to finish; press Ctrl-C again to end them now",
		count(len(ending), "running session"), strings.Join(ending, ", "), plural(len(ending), "has", "have"), spoken(grace))
}

// Drained waits until no session a stop would end is running, or ctx
// ends; it reports whether they all finished.
func (st *Station) Drained(ctx context.Context) bool {
	// Subscribed before the first look: a session's end publishes an
	// event after it leaves the registry, so none is missed.
	sub := st.bus.Subscribe(16)
	defer sub.Close()
	for len(st.endingOnStop()) > 0 {
		select {
		case <-sub.C:
		case <-ctx.Done():
			return false
		}
	}
	return true
}

// endingOnStop are the live sessions a stop ends (not those left running
// in tmux), by id.
func (st *Station) endingOnStop() []string {
	var ids []string
	for _, s := range st.reg.live() {
		if _, survives := s.proc.(supervisor.Handled); !survives {
			ids = append(ids, s.spec.ID)
		}
	}
	slices.Sort(ids)
	return ids
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// StopRequested is closed once RequestStop was called.
func (st *Station) StopRequested() <-chan struct{} { return st.stopAsked }
