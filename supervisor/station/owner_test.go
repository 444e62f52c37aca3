package station

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// slowWorkspaces is a git project whose gate runs until its context ends,
// and whose remote takes a while to take a push.
type slowWorkspaces struct {
	fakeWorkspaces
	gates   atomic.Int32 // gate runs not returned yet
	cut     atomic.Int32 // gate runs whose context ended
	pushing atomic.Int32 // pushes not returned yet
	pushed  atomic.Int32 // pushes the remote took
	// pushTakes is how long the remote takes to take a push (0: 10 s).
	pushTakes time.Duration
}

func (w *slowWorkspaces) HeadGate(ctx context.Context, _ supervisor.Repo, _ string, run bool) (supervisor.GateVerdict, bool, error) {
	if !run {
		return supervisor.GateVerdict{}, false, nil // nothing cached
	}
	w.gates.Add(1)
	defer w.gates.Add(-1)
	<-ctx.Done()
	w.cut.Add(1)
	return supervisor.GateVerdict{}, false, ctx.Err()
}

func (w *slowWorkspaces) Publish(ctx context.Context, _ supervisor.Repo, _ string) (supervisor.Published, error) {
	w.pushing.Add(1)
	defer w.pushing.Add(-1)
	takes := w.pushTakes
	if takes == 0 {
		takes = 10 * time.Second
	}
	select {
	case <-time.After(takes):
	case <-ctx.Done():
		return supervisor.Published{}, ctx.Err()
	}
	w.pushed.Add(1)
	return supervisor.Published{Remote: "origin", Pushed: []string{"bs/b1/t1"}, Complete: true}, nil
}

// Run returns only once every goroutine the station started has: a gate
// check still running when the station stops is ended by the stop (not
// left to run for its 30 minutes), and the push that the stopped
// session's settling started has reached the remote.
func TestRunLeavesNoGoroutineBehind(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := project("web", 5*time.Minute, 5*time.Minute)
		p.Gate, p.Remote = "make test", "origin"
		ws := &slowWorkspaces{}
		h := startWith(t, func(o *Options) { o.Workspaces = ws }, p)
		task := h.add("web", "a")
		advance(time.Second)
		s := h.session(task.ID)
		err := h.st.Agent.AgentComplete(h.ctx, s.ID, "done")
		if err == nil || !strings.Contains(err.Error(), "still running") {
			t.Fatalf("complete answered %v; want the agent told the gate is still running", err)
		}
		if n := ws.gates.Load(); n != 1 {
			t.Fatalf("%d gate runs under way after the answer; want the one going on to be cached", n)
		}
		h.stop()
		if n, cut := ws.gates.Load(), ws.cut.Load(); n != 0 || cut != 1 {
			t.Errorf("after Run returned: %d gate runs still under way, %d ended by the stop; want 0 and 1", n, cut)
		}
		if n, done := ws.pushing.Load(), ws.pushed.Load(); n != 0 || done == 0 {
			t.Errorf("after Run returned: %d pushes still under way, %d taken by the remote; want 0 and at least 1", n, done)
		}
		if n := h.st.work.Running(); n != 0 {
			t.Errorf("after Run returned: %d of the station's goroutines still run", n)
		}
		if got := h.task(task.ID); got.State != supervisor.TaskBlocked || !strings.Contains(got.Reason, "station stopped") {
			t.Errorf("after the stop the task is %s (%q); want it blocked by the stop, written after Run's context ended", got.State, got.Reason)
		}
	})
}

// A remote that does not answer holds a stop for stopPushGrace at most,
// not pushTimeout: a service manager kills a station 30 s past
// stop_grace, before it could write its state. The push cut short keeps
// the task's work here, blocked by the stop.
func TestStopWaitsForAStuckPushOnlySoLong(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := project("web", 5*time.Minute, 5*time.Minute)
		p.Remote = "origin"
		ws := &slowWorkspaces{pushTakes: time.Hour}
		h := startWith(t, func(o *Options) { o.Workspaces = ws }, p)
		task := h.add("web", "a")
		advance(time.Second)
		h.session(task.ID)
		began := time.Now()
		h.stop()
		if took := time.Since(began); took > stopPushGrace+time.Second {
			t.Errorf("the stop took %s with a remote that does not answer; want at most %s", took, stopPushGrace)
		}
		if n, done := ws.pushing.Load(), ws.pushed.Load(); n != 0 || done != 0 {
			t.Errorf("after Run returned: %d pushes under way, %d taken; want 0 and 0", n, done)
		}
		if got := h.task(task.ID); got.State != supervisor.TaskBlocked || !strings.Contains(got.Reason, "station stopped") {
			t.Errorf("after the stop the task is %s (%q); want it blocked by the stop", got.State, got.Reason)
		}
	})
}
