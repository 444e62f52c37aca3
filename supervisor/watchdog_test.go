package supervisor

import (
	"slices"
	"testing"
)

func TestWatchdogNext(t *testing.T) {
	work := func(st SessionState) wdState { return wdState{State: st, Base: SessWorking, CanNudge: true} }
	review := func(st SessionState) wdState { return wdState{State: st, Base: SessReviewing, CanNudge: true} }
	tests := []struct {
		name string
		from wdState
		in   wdInput
		want SessionState
		effs []wdEffect
	}{
		{"first output starts work", work(SessStarting), inOutput, SessWorking, []wdEffect{effArm}},
		{"first output starts a review", review(SessStarting), inOutput, SessReviewing, []wdEffect{effArm}},
		{"output re-arms", work(SessWorking), inOutput, SessWorking, []wdEffect{effArm}},
		{"report re-arms", work(SessWorking), inReport, SessWorking, []wdEffect{effArm}},
		{"silent console, other layer alive: quiet", work(SessWorking), inDeadlineLive, SessQuiet, []wdEffect{effArm}},
		{"quiet stays quiet on a report", work(SessQuiet), inReport, SessQuiet, []wdEffect{effArm}},
		{"quiet back to work on output", work(SessQuiet), inOutput, SessWorking, []wdEffect{effArm}},
		{"quiet, then nothing: nudge", work(SessQuiet), inDeadlineDead, SessNudged, []wdEffect{effNudge, effNotifyNudge, effArmBlock}},
		{"stage 1: silence nudges", work(SessWorking), inDeadlineDead, SessNudged, []wdEffect{effNudge, effNotifyNudge, effArmBlock}},
		{"a silent start is nudged too", work(SessStarting), inDeadlineDead, SessNudged, []wdEffect{effNudge, effNotifyNudge, effArmBlock}},
		{"a silent review is nudged", review(SessReviewing), inDeadlineDead, SessNudged, []wdEffect{effNudge, effNotifyNudge, effArmBlock}},
		{"a TUI animating after its turn is still waiting", work(SessWaiting), inOutput, SessWaiting, nil},
		{"waiting at the prompt is nudged", work(SessWaiting), inDeadlineDead, SessNudged, []wdEffect{effNudge, effNotifyNudge, effArmBlock}},
		{"stage 2: silence after nudge blocks", work(SessNudged), inDeadlineDead, SessEnded, []wdEffect{effBlock}},
		{"life after nudge: back to work", work(SessNudged), inOutput, SessWorking, []wdEffect{effArm}},
		{"life after nudge in a review: back to reviewing", review(SessNudged), inOutput, SessReviewing, []wdEffect{effArm}},
		{"report after nudge: back to work", work(SessNudged), inReport, SessWorking, []wdEffect{effArm}},
		{"other layer after nudge: quiet", work(SessNudged), inDeadlineLive, SessQuiet, []wdEffect{effArm}},
		{"turn ended again after nudge is not life", work(SessNudged), inWaiting, SessNudged, nil},
		{"no nudge text: idle", wdState{State: SessWorking, Base: SessWorking}, inDeadlineDead, SessIdle, []wdEffect{effArmBlock}},
		{"idle then nothing: block", wdState{State: SessIdle, Base: SessWorking}, inDeadlineDead, SessEnded, []wdEffect{effBlock}},
		{"permission dialog notifies", work(SessWorking), inPermission, SessNeedsPermission, []wdEffect{effArm, effNotifyPermission}},
		{"permission dialog is never blocked", work(SessNeedsPermission), inDeadlineDead, SessNeedsPermission, []wdEffect{effArm, effNotifyPermission}},
		{"permission dialog draws, still waiting on a person", work(SessNeedsPermission), inOutput, SessNeedsPermission, nil},
		{"permission dialog is never nudged by hand", work(SessNeedsPermission), inNudgeNow, SessNeedsPermission, nil},
		{"permission answered: report", work(SessNeedsPermission), inReport, SessWorking, []wdEffect{effArm}},
		{"permission answered, turn ended", work(SessNeedsPermission), inWaiting, SessWaiting, []wdEffect{effArm}},
		{"agent says reviewing", work(SessWorking), inReviewing, SessReviewing, []wdEffect{effArm}},
		{"agent says working", review(SessReviewing), inWorking, SessWorking, []wdEffect{effArm}},
		{"nudge now", work(SessWorking), inNudgeNow, SessNudged, []wdEffect{effNudge, effArmBlock}},
		{"ended takes nothing", work(SessEnded), inOutput, SessEnded, nil},
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
	for s := SessStarting; s <= SessEnded; s++ {
		back, ok := ParseSessionState(s.String())
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
