package guard

import (
	"maps"
	"slices"
	"strings"
	"time"
)

// Session is what the guard needs to end one of the station's sessions, as
// the station's own fence would.
type Session struct {
	ID string `json:"id"`
	// Leader is the agent's process (the pty's child, the tmux pane's
	// process), and Ident what identified it when the station reported it
	// (start time where the OS gives one), so a pid reused since is never
	// signalled.
	Leader int    `json:"pid"`
	Ident  string `json:"ident,omitempty"`
	// Marker is the environment entry ("KEY=VALUE") every process of the
	// session carries; it finds what left the tree.
	Marker string `json:"marker"`
	// Window is the session's tmux window (its handle), "" for a pty
	// session: once the station has died, no station would read the dead
	// window's status and remove it, so the guard does.
	Window string `json:"window,omitempty"`
	// Note is a file the guard writes before it ends the session, so the
	// station that wakes knows the guard fenced it (not that the agent
	// exited on its own).
	Note string `json:"note,omitempty"`
}

// state is what the guard knows.
type state struct {
	// deadline is when the agents must be gone (monotonic), wall the same
	// by the wall clock (a machine that slept stopped the monotonic
	// clock); zero before the first renewal, and after the guard fenced,
	// until the station proves its leases again.
	deadline, wall time.Time
	sessions       map[string]Session
	// gone: the station's feed closed without a stop (the station died);
	// the guard waits for its deadline or for a station that takes over.
	gone bool
}

type inKind int

const (
	inDeadline inKind = iota // a renewal succeeded: a new deadline
	inWatch                  // a session started
	inUnwatch                // a session ended
	inStop                   // the station exits normally
	inClosed                 // the feed closed without a stop
	inTick                   // time passed
)

func (k inKind) String() string {
	return [...]string{"deadline", "watch", "unwatch", "stop", "closed", "tick"}[k]
}

// input is one event. at and wall are the guard's clocks when it happened.
type input struct {
	kind     inKind
	at, wall time.Time
	// in and until: inDeadline's deadline, as a duration from at (the
	// monotonic clocks of two processes need not share an origin) and by
	// the wall clock.
	in      time.Duration
	until   time.Time
	session Session
	// takenOver (inTick, once the station is gone and the deadline has
	// passed): another station holds the same home now, and adopts what
	// it finds.
	takenOver bool
}

type effKind int

const (
	effEnd  effKind = iota // end these sessions now
	effExit                // the guard's work is done
)

type effect struct {
	kind     effKind
	sessions []Session
}

// next is the guard's one transition function.
func next(s state, in input) (state, []effect) {
	if s.sessions == nil {
		s.sessions = map[string]Session{}
	}
	switch in.kind {
	case inDeadline:
		s.deadline, s.wall = in.at.Add(in.in), in.until
	case inWatch:
		s.sessions = maps.Clone(s.sessions)
		s.sessions[in.session.ID] = in.session
	case inUnwatch:
		s.sessions = maps.Clone(s.sessions)
		delete(s.sessions, in.session.ID)
	case inStop:
		return s, []effect{{kind: effExit}}
	case inClosed:
		s.gone = true
		if len(s.sessions) == 0 || s.deadline.IsZero() {
			// Nothing to guard: no session, or no proof ever given (no
			// lease was renewed, so none can have been let to another).
			return s, []effect{{kind: effExit}}
		}
	case inTick:
		if !s.due(in.at, in.wall) {
			return s, nil
		}
		if s.gone && in.takenOver {
			// A station restarted on the home holds it now: it adopts
			// what runs, or ends what it may not keep, under leases it
			// proves itself (and a guard of its own).
			return s, []effect{{kind: effExit}}
		}
		var effs []effect
		if len(s.sessions) > 0 {
			ends := slices.SortedFunc(maps.Values(s.sessions), func(a, b Session) int { return strings.Compare(a.ID, b.ID) })
			effs = append(effs, effect{kind: effEnd, sessions: ends})
		}
		s.sessions = map[string]Session{}
		s.deadline, s.wall = time.Time{}, time.Time{}
		if s.gone {
			effs = append(effs, effect{kind: effExit})
		}
		return s, effs
	}
	return s, nil
}

// due reports whether the deadline has passed by either clock.
func (s state) due(at, wall time.Time) bool {
	if s.deadline.IsZero() {
		return false
	}
	return !at.Before(s.deadline) || !s.wall.IsZero() && !wall.Before(s.wall)
}
