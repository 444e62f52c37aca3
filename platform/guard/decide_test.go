package guard

import (
	"slices"
	"testing"
	"time"
)

// TestNext walks the guard through what a station does and fails to do,
// on fake clocks: t0 is any instant; each step is one input and what the
// guard must do about it.
func TestNext(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	a := Session{ID: "t1.1", Leader: 10, Marker: "BUILDSTATION_TOKEN=a"}
	b := Session{ID: "t2.1", Leader: 20, Marker: "BUILDSTATION_TOKEN=b"}
	type step struct {
		in   input
		ends []string // sessions ended
		exit bool
	}
	deadline := func(now, in time.Duration) input {
		return input{kind: inDeadline, at: at(now), wall: at(now), in: in, until: at(now + in)}
	}
	tick := func(now time.Duration) input { return input{kind: inTick, at: at(now), wall: at(now)} }
	watch := func(s Session) input { return input{kind: inWatch, session: s} }
	cases := []struct {
		name  string
		steps []step
	}{
		{"a healthy station keeps pushing the deadline", []step{
			{in: watch(a)}, {in: deadline(0, 1500*time.Millisecond)},
			{in: tick(time.Second)}, {in: deadline(time.Second, 1500*time.Millisecond)},
			{in: tick(2 * time.Second)}, {in: deadline(2*time.Second, 1500*time.Millisecond)},
			{in: tick(3 * time.Second)},
		}},
		{"a station that stops feeding has its sessions ended at the deadline, once", []step{
			{in: watch(a)}, {in: watch(b)}, {in: deadline(0, 1500*time.Millisecond)},
			{in: tick(1499 * time.Millisecond)},
			{in: tick(1500 * time.Millisecond), ends: []string{"t1.1", "t2.1"}},
			{in: tick(5 * time.Second)},
		}},
		{"a session that ended is not ended again", []step{
			{in: watch(a)}, {in: watch(b)}, {in: input{kind: inUnwatch, session: Session{ID: "t1.1"}}},
			{in: deadline(0, time.Second)},
			{in: tick(2 * time.Second), ends: []string{"t2.1"}},
		}},
		{"no deadline yet: nothing is ended", []step{
			{in: watch(a)}, {in: tick(time.Hour)},
		}},
		{"the wall clock ran past (the machine slept): the sessions are ended", []step{
			{in: watch(a)}, {in: deadline(0, time.Second)},
			{in: input{kind: inTick, at: at(100 * time.Millisecond), wall: at(time.Minute)}, ends: []string{"t1.1"}},
		}},
		{"a station that resumes and renews is guarded again", []step{
			{in: watch(a)}, {in: deadline(0, time.Second)},
			{in: tick(10 * time.Second), ends: []string{"t1.1"}},
			{in: watch(b)}, {in: tick(11 * time.Second)},
			{in: deadline(12*time.Second, time.Second)},
			{in: tick(13 * time.Second), ends: []string{"t2.1"}},
		}},
		{"a station that stops normally stops its guard, which ends nothing", []step{
			{in: watch(a)}, {in: deadline(0, time.Second)},
			{in: input{kind: inStop}, exit: true},
		}},
		{"a station that died with no session: the guard goes", []step{
			{in: deadline(0, time.Second)},
			{in: input{kind: inClosed}, exit: true},
		}},
		{"a station that died with sessions: they are ended at the deadline, then the guard goes", []step{
			{in: watch(a)}, {in: deadline(0, time.Second)},
			{in: input{kind: inClosed}},
			{in: tick(500 * time.Millisecond)},
			{in: tick(time.Second), ends: []string{"t1.1"}, exit: true},
		}},
		{"a station that died and was restarted in time: its sessions are left to the new one", []step{
			{in: watch(a)}, {in: deadline(0, time.Second)},
			{in: input{kind: inClosed}},
			{in: input{kind: inTick, at: at(time.Second), wall: at(time.Second), takenOver: true}, exit: true},
		}},
		{"no station holds the home at the deadline: the sessions are ended", []step{
			{in: watch(a)}, {in: deadline(0, time.Second)},
			{in: input{kind: inClosed}},
			{in: tick(time.Second), ends: []string{"t1.1"}, exit: true},
		}},
		{"a station that is not gone is never taken over", []step{
			{in: watch(a)}, {in: deadline(0, time.Second)},
			{in: input{kind: inTick, at: at(time.Second), wall: at(time.Second), takenOver: true}, ends: []string{"t1.1"}},
		}},
		{"a station that died before any renewal: nothing to guard", []step{
			{in: watch(a)},
			{in: input{kind: inClosed}, exit: true},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var s state
			for i, st := range c.steps {
				var effs []effect
				s, effs = next(s, st.in)
				var ends []string
				exit := false
				for _, e := range effs {
					switch e.kind {
					case effEnd:
						for _, x := range e.sessions {
							ends = append(ends, x.ID)
						}
					case effExit:
						exit = true
					}
				}
				if !slices.Equal(ends, st.ends) || exit != st.exit {
					t.Fatalf("step %d (%v): ended %v, exit %v; want ended %v, exit %v", i, st.in.kind, ends, exit, st.ends, st.exit)
				}
			}
		})
	}
}
