package station

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// slowObserver takes a second to start watching a session, as a probe that
// looks up a process tree on a loaded machine does.
type slowObserver struct{ fakeProber }

func (o *slowObserver) Observe(supervisor.ProbeTarget) error { time.Sleep(time.Second); return nil }

var _ supervisor.Observer = (*slowObserver)(nil)

// An agent that prints the moment it starts, before the session's
// goroutine has armed its first window, has started: its first output is
// not lost for being older than the window.
func TestOutputBeforeTheWatchdogArmsStartsTheSession(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		obs := &slowObserver{}
		h := startWith(t, func(o *Options) { o.Probers = []supervisor.Prober{obs} }, project("web", 5*time.Minute, 5*time.Minute))
		task := h.add("web", "fix the bug")
		p := h.proc()
		p.say("Welcome to the agent\r\n")
		advance(2 * time.Second)
		if s := h.session(task.ID); s.State != supervisor.SessWorking {
			t.Fatalf("after the agent's first output the session is %v, want working", s.State)
		}
	})
}
