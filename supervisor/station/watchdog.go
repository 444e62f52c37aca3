package station

import "github.com/buildstation/buildstation/supervisor"

// The watchdog is a pure state machine: next(state, input) → (state, effects).
// The session goroutine feeds it what happened (console output, a report on
// the board, a deadline that passed together with what the other layers of
// evidence showed) and carries out the effects it returns. Keeping it free of
// time, I/O and goroutines is what lets a table test cover every edge.

// wdInput is one thing that happened to a session.
type wdInput int

const (
	inOutput       wdInput = iota // console bytes (not our own nudge's echo)
	inReport                      // the agent reported on the board (progress, status, a hook)
	inWorking                     // the agent said it is working (status, a prompt submitted)
	inReviewing                   // the agent said it is reviewing
	inWaiting                     // hooks: the turn ended, the agent waits for input
	inPermission                  // hooks: a dialog only a person may answer
	inDeadlineLive                // the window passed; the console was silent but another layer showed life
	inDeadlineDead                // the window passed and every layer was quiet
	inNudgeNow                    // a person asked for a nudge now
)

var wdInputNames = [...]string{"output", "report", "working", "reviewing", "waiting", "permission", "deadline-live", "deadline-dead", "nudge-now"}

func (i wdInput) String() string { return wdInputNames[i] }

// wdEffect is something the session goroutine must do.
type wdEffect int

const (
	effArm              wdEffect = iota // restart the idle window from now
	effArmBlock                         // start the block window from now
	effNudge                            // type the nudge text, then Enter as a separate write
	effNotifyNudge                      // tell the person a session was nudged
	effBlock                            // block the task, end the session's tree, free the slot
	effNotifyPermission                 // tell the person a dialog waits for them
)

var wdEffectNames = [...]string{"arm", "arm-block", "nudge", "notify-nudge", "block", "notify-permission"}

func (e wdEffect) String() string { return wdEffectNames[e] }

// wdState is the watchdog's view of a session: its state and the state it
// returns to when alive (working, or reviewing for a review session).
type wdState struct {
	State supervisor.SessionState
	Base  supervisor.SessionState
	// CanNudge is false when nudging is turned off (an empty nudge): then
	// an idle session goes straight from idle to blocked after the block
	// window.
	CanNudge bool
}

// next is the watchdog's one transition function.
func next(s wdState, in wdInput) (wdState, []wdEffect) {
	if s.State == supervisor.SessEnded {
		return s, nil
	}
	switch in {
	case inWorking:
		s.Base, s.State = supervisor.SessWorking, supervisor.SessWorking
		return s, []wdEffect{effArm}
	case inReviewing:
		s.Base, s.State = supervisor.SessReviewing, supervisor.SessReviewing
		return s, []wdEffect{effArm}
	case inPermission:
		// Never typed into, never blocked for silence: a person must act.
		s.State = supervisor.SessNeedsPermission
		return s, []wdEffect{effArm, effNotifyPermission}
	case inWaiting:
		return nextWaiting(s)
	case inOutput:
		return nextOutput(s)
	case inReport:
		if s.State == supervisor.SessQuiet {
			// Still silent on the console, but alive: stay quiet, re-arm.
			return s, []wdEffect{effArm}
		}
		s.State = s.Base
		return s, []wdEffect{effArm}
	case inDeadlineLive:
		if s.State == supervisor.SessNeedsPermission {
			return s, []wdEffect{effArm, effNotifyPermission}
		}
		s.State = supervisor.SessQuiet
		return s, []wdEffect{effArm}
	case inDeadlineDead:
		return nextDeadlineDead(s)
	case inNudgeNow:
		if s.State == supervisor.SessNeedsPermission {
			// An Enter here would approve whatever the dialog asks.
			return s, nil
		}
		s.State = supervisor.SessNudged
		return s, []wdEffect{effNudge, effArmBlock}
	}
	return s, nil
}

// nextWaiting is next on a hook saying the agent's turn ended.
func nextWaiting(s wdState) (wdState, []wdEffect) {
	if s.State == supervisor.SessNeedsPermission {
		// The dialog was answered and the turn ended.
		s.State = supervisor.SessWaiting
		return s, []wdEffect{effArm}
	}
	if s.State == supervisor.SessNudged {
		// The nudge was taken as a turn and the agent ended it again
		// without finishing: that is not life, keep the block window.
		return s, nil
	}
	s.State = supervisor.SessWaiting
	return s, []wdEffect{effArm}
}

// nextOutput is next on console output: life, except where the console is
// known to move without the agent working.
func nextOutput(s wdState) (wdState, []wdEffect) {
	switch s.State {
	case supervisor.SessNeedsPermission:
		// The dialog itself draws on the console; only a hook or a
		// report says a person answered it.
		return s, nil
	case supervisor.SessWaiting:
		// The agent's hooks said its turn ended; a TUI still animates
		// for a while after that. A new turn comes with its own hook.
		return s, nil
	default:
		s.State = s.Base
		return s, []wdEffect{effArm}
	}
}

// nextDeadlineDead is next when a window ran out with no layer showing
// life: the escalation idle → nudged → blocked.
func nextDeadlineDead(s wdState) (wdState, []wdEffect) {
	switch s.State {
	case supervisor.SessNeedsPermission:
		// Keep reminding the person; a silent dialog is not a wedge.
		return s, []wdEffect{effArm, effNotifyPermission}
	case supervisor.SessNudged, supervisor.SessIdle:
		s.State = supervisor.SessEnded
		return s, []wdEffect{effBlock}
	default:
		if !s.CanNudge {
			s.State = supervisor.SessIdle
			return s, []wdEffect{effArmBlock}
		}
		s.State = supervisor.SessNudged
		return s, []wdEffect{effNudge, effNotifyNudge, effArmBlock}
	}
}
