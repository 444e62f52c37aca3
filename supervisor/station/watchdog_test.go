package station

import (
	"slices"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
)

func TestWatchdogNext(t *testing.T) {
	work := func(st supervisor.SessionState) wdState {
		return wdState{State: st, Base: supervisor.SessWorking, CanNudge: true}
	}
	review := func(st supervisor.SessionState) wdState {
		return wdState{State: st, Base: supervisor.SessReviewing, CanNudge: true}
	}
	tests := []struct {
		name string
		from wdState
		in   wdInput
		want supervisor.SessionState
		effs []wdEffect
	}{
		{"first output starts work", work(supervisor.SessStarting), inOutput, supervisor.SessWorking, []wdEffect{effArm}},
		{"first output starts a review", review(supervisor.SessStarting), inOutput, supervisor.SessReviewing, []wdEffect{effArm}},
		{"output re-arms", work(supervisor.SessWorking), inOutput, supervisor.SessWorking, []wdEffect{effArm}},
		{"report re-arms", work(supervisor.SessWorking), inReport, supervisor.SessWorking, []wdEffect{effArm}},
		{"silent console, other layer alive: quiet", work(supervisor.SessWorking), inDeadlineLive, supervisor.SessQuiet, []wdEffect{effArm}},
		{"quiet stays quiet on a report", work(supervisor.SessQuiet), inReport, supervisor.SessQuiet, []wdEffect{effArm}},
		{"quiet back to work on output", work(supervisor.SessQuiet), inOutput, supervisor.SessWorking, []wdEffect{effArm}},
		{"quiet, then nothing: nudge", work(supervisor.SessQuiet), inDeadlineDead, supervisor.SessNudged, []wdEffect{effNudge, effNotifyNudge, effArmBlock}},
		{"stage 1: silence nudges", work(supervisor.SessWorking), inDeadlineDead, supervisor.SessNudged, []wdEffect{effNudge, effNotifyNudge, effArmBlock}},
		{"a silent start is nudged too", work(supervisor.SessStarting), inDeadlineDead, supervisor.SessNudged, []wdEffect{effNudge, effNotifyNudge, effArmBlock}},
		{"a silent review is nudged", review(supervisor.SessReviewing), inDeadlineDead, supervisor.SessNudged, []wdEffect{effNudge, effNotifyNudge, effArmBlock}},
		{"a TUI animating after its turn is still waiting", work(supervisor.SessWaiting), inOutput, supervisor.SessWaiting, nil},
		{"waiting at the prompt is nudged", work(supervisor.SessWaiting), inDeadlineDead, supervisor.SessNudged, []wdEffect{effNudge, effNotifyNudge, effArmBlock}},
		{"stage 2: silence after nudge blocks", work(supervisor.SessNudged), inDeadlineDead, supervisor.SessEnded, []wdEffect{effBlock}},
		{"life after nudge: back to work", work(supervisor.SessNudged), inOutput, supervisor.SessWorking, []wdEffect{effArm}},
		{"life after nudge in a review: back to reviewing", review(supervisor.SessNudged), inOutput, supervisor.SessReviewing, []wdEffect{effArm}},
		{"report after nudge: back to work", work(supervisor.SessNudged), inReport, supervisor.SessWorking, []wdEffect{effArm}},
		{"other layer after nudge: quiet", work(supervisor.SessNudged), inDeadlineLive, supervisor.SessQuiet, []wdEffect{effArm}},
		{"turn ended again after nudge is not life", work(supervisor.SessNudged), inWaiting, supervisor.SessNudged, nil},
		{"no nudge text: idle", wdState{State: supervisor.SessWorking, Base: supervisor.SessWorking}, inDeadlineDead, supervisor.SessIdle, []wdEffect{effArmBlock}},
		{"idle then nothing: block", wdState{State: supervisor.SessIdle, Base: supervisor.SessWorking}, inDeadlineDead, supervisor.SessEnded, []wdEffect{effBlock}},
		{"permission dialog notifies", work(supervisor.SessWorking), inPermission, supervisor.SessNeedsPermission, []wdEffect{effArm, effNotifyPermission}},
		{"permission dialog is never blocked", work(supervisor.SessNeedsPermission), inDeadlineDead, supervisor.SessNeedsPermission, []wdEffect{effArm, effNotifyPermission}},
		{"permission dialog draws, still waiting on a person", work(supervisor.SessNeedsPermission), inOutput, supervisor.SessNeedsPermission, nil},
		{"permission dialog is never nudged by hand", work(supervisor.SessNeedsPermission), inNudgeNow, supervisor.SessNeedsPermission, nil},
		{"permission answered: report", work(supervisor.SessNeedsPermission), inReport, supervisor.SessWorking, []wdEffect{effArm}},
		{"permission answered, turn ended", work(supervisor.SessNeedsPermission), inWaiting, supervisor.SessWaiting, []wdEffect{effArm}},
		{"agent says reviewing", work(supervisor.SessWorking), inReviewing, supervisor.SessReviewing, []wdEffect{effArm}},
		{"agent says working", review(supervisor.SessReviewing), inWorking, supervisor.SessWorking, []wdEffect{effArm}},
		{"nudge now", work(supervisor.SessWorking), inNudgeNow, supervisor.SessNudged, []wdEffect{effNudge, effArmBlock}},
		{"ended takes nothing", work(supervisor.SessEnded), inOutput, supervisor.SessEnded, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, effs := next(tt.from, tt.in)
			if got.State != tt.want || !slices.Equal(effs, tt.effs) {
				t.Errorf("next(%v, %v) = %v %v, want %v %v", tt.from.State, tt.in, got.State, effs, tt.want, tt.effs)
			}
		})
	}
}

func TestWatchdogNamesCoverAll(t *testing.T) {
	for i := inOutput; i <= inNudgeNow; i++ {
		if i.String() == "" {
			t.Errorf("input %d has no name", i)
		}
	}
	for s := supervisor.SessStarting; s <= supervisor.SessEnded; s++ {
		back, ok := supervisor.ParseSessionState(s.String())
		if !ok || back != s {
			t.Errorf("state %v does not round-trip", s)
		}
	}
	// The log says how each session ended by name.
	seen := map[string]bool{}
	for k := outExited; k <= outFenced; k++ {
		if n := k.String(); n == "unknown" || seen[n] {
			t.Errorf("outcome %d is named %q", int(k), n)
		} else {
			seen[n] = true
		}
	}
	if n := (outFenced + 1).String(); n != "unknown" {
		t.Errorf("an outcome past the last is named %q", n)
	}
}
