package station

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

func TestSessionKind(t *testing.T) {
	for _, c := range []struct {
		kind   supervisor.SessionKind
		window time.Duration
		base   supervisor.SessionState
		task   supervisor.TaskState
	}{
		{supervisor.KindWork, time.Minute, supervisor.SessWorking, supervisor.TaskWorking},
		{supervisor.KindReview, time.Hour, supervisor.SessReviewing, supervisor.TaskReview},
	} {
		if w, b, ts := c.kind.Window(time.Minute, time.Hour), c.kind.Base(), c.kind.TaskState(); w != c.window || b != c.base || ts != c.task {
			t.Errorf("%s: window %v, base %v, task state %v; want %v, %v, %v", c.kind, w, b, ts, c.window, c.base, c.task)
		}
	}
}

// TestProjected: a healthy session's next nudge is one idle window (its
// own, carried in the snapshot) after its latest output; nothing else moves.
func TestProjected(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	check := t0.Add(10 * time.Second)
	si := supervisor.SessionInfo{Kind: supervisor.KindWork, State: supervisor.SessWorking, NextAction: "nudge", NextAt: &check,
		LastOutputAt: t0.Add(time.Minute), IdleWindow: supervisor.Duration(5 * time.Minute)}
	if got := si.Projected().NextAt; !got.Equal(t0.Add(6 * time.Minute)) {
		t.Errorf("work session: next nudge %v, want last output + 5m", got)
	}
	rv := si
	rv.Kind, rv.State, rv.IdleWindow = supervisor.KindReview, supervisor.SessReviewing, supervisor.Duration(10*time.Minute)
	if got := rv.Projected().NextAt; !got.Equal(t0.Add(11 * time.Minute)) {
		t.Errorf("review session: next nudge %v, want last output + 10m", got)
	}
	st := si
	st.State = supervisor.SessStarting
	if got := st.Projected().NextAt; !got.Equal(t0.Add(6 * time.Minute)) {
		t.Errorf("starting session: next nudge %v, want last output + 5m", got)
	}
	for name, moved := range map[string]func(supervisor.SessionInfo) supervisor.SessionInfo{
		"a block":                func(s supervisor.SessionInfo) supervisor.SessionInfo { s.NextAction = "block"; return s },
		"a waiting session":      func(s supervisor.SessionInfo) supervisor.SessionInfo { s.State = supervisor.SessWaiting; return s },
		"without a window":       func(s supervisor.SessionInfo) supervisor.SessionInfo { s.IdleWindow = 0; return s },
		"without output":         func(s supervisor.SessionInfo) supervisor.SessionInfo { s.LastOutputAt = time.Time{}; return s },
		"a quiet session":        func(s supervisor.SessionInfo) supervisor.SessionInfo { s.State = supervisor.SessQuiet; return s },
		"a review as if working": func(s supervisor.SessionInfo) supervisor.SessionInfo { s.Kind = supervisor.KindReview; return s },
	} {
		if got := moved(si).Projected().NextAt; !got.Equal(check) {
			t.Errorf("%s is not moved by output: next %v, want %v", name, got, check)
		}
	}
	if si.Projected(); !si.NextAt.Equal(check) {
		t.Error("Projected changed its receiver")
	}
}

// The effective window is in `session ls --json` as Go writes a duration,
// like a project's windows, and reads back.
func TestSessionInfoIdleWindowJSON(t *testing.T) {
	b, err := json.Marshal(supervisor.SessionInfo{ID: "t1.1", Kind: supervisor.KindReview, IdleWindow: supervisor.Duration(10 * time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"kind":"review"`) || !strings.Contains(string(b), `"idle_window":"10m0s"`) {
		t.Errorf("JSON %s, want kind review and idle_window 10m0s", b)
	}
	var back supervisor.SessionInfo
	if err := json.Unmarshal(b, &back); err != nil || back.IdleWindow != supervisor.Duration(10*time.Minute) || back.Kind != supervisor.KindReview {
		t.Errorf("read back %+v, %v", back, err)
	}
	if b, _ := json.Marshal(supervisor.SessionInfo{ID: "t1.1"}); strings.Contains(string(b), "idle_window") {
		t.Errorf("another station's session (no window) shows one: %s", b)
	}
	if err := json.Unmarshal([]byte(`{"idle_window":"soon"}`), &back); err == nil {
		t.Error("a bad idle_window was read")
	}
}

// A session carries its kind's window, and its next nudge is projected
// with it: a review's is review_idle_window after its latest output.
func TestSessionCarriesItsKindsWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pr := project("web", 5*time.Minute, 5*time.Minute)
		pr.Review = true
		h := start(t, pr)
		task := h.add("web", "fix it")
		h.proc().say("working\r\n")
		s := h.session(task.ID)
		if s.Kind != supervisor.KindWork || s.IdleWindow != supervisor.Duration(5*time.Minute) {
			t.Fatalf("work session: kind %q, idle_window %v; want work, 5m", s.Kind, s.IdleWindow)
		}
		if err := h.st.Agent.AgentComplete(h.ctx, s.ID, "done"); err != nil {
			t.Fatal(err)
		}
		rp := h.proc()
		advance(time.Minute)
		rp.say("reading the diff\r\n")
		synctest.Wait()
		said := time.Now()
		advance(3 * time.Minute)
		rs := h.session(task.ID)
		if rs.Kind != supervisor.KindReview || rs.State != supervisor.SessReviewing || rs.IdleWindow != supervisor.Duration(10*time.Minute) {
			t.Fatalf("review session: kind %q, state %v, idle_window %v; want review, reviewing, 10m", rs.Kind, rs.State, rs.IdleWindow)
		}
		if rs.NextAction != "nudge" || rs.NextAt == nil || !rs.NextAt.Equal(said.Add(10*time.Minute)) {
			t.Fatalf("review's next %s at %v, want nudge at %v (10m after its output)", rs.NextAction, rs.NextAt, said.Add(10*time.Minute))
		}
	})
}
