package station

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// heldProber holds the session's goroutine inside a probe until released:
// the moment between an agent's request and the step that shows it.
type heldProber struct{ held, release chan struct{} }

func (p *heldProber) Layer() string { return "cpu" }
func (p *heldProber) Probe(context.Context, supervisor.ProbeTarget, time.Time) (supervisor.Life, bool, error) {
	p.held <- struct{}{}
	<-p.release
	return supervisor.Life{At: time.Now(), Detail: "12.0s CPU in cc1"}, true, nil
}
func (p *heldProber) Forget(string) {}

// A request and the state it puts the session in reach a reader together:
// while the session's goroutine is busy elsewhere, a request just posted
// is not read beside a session still working (a card would offer Allow on
// a working card, and a script reading both would see them disagree).
func TestAskIsReadWithItsState(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pr := &heldProber{held: make(chan struct{}, 1), release: make(chan struct{})}
		h := startWith(t, func(o *Options) { o.Probers = []supervisor.Prober{pr} }, project("web", time.Minute, time.Minute))
		task := h.add("web", "publish")
		p := h.proc()
		p.say("building\n")
		advance(time.Second)
		s := h.session(task.ID)
		if s.State != supervisor.SessWorking {
			t.Fatalf("session %s, want working", s.State)
		}
		advance(time.Minute) // the window ends; the goroutine probes and is held
		<-pr.held
		go func() {
			_, _ = h.st.Asks.AgentAsk(h.ctx, s.ID, supervisor.AskRequest{Kind: supervisor.AskPermission, Tool: "Bash", Input: "npm publish"})
		}()
		synctest.Wait()
		if info := h.session(task.ID); info.WaitingOn != nil && info.State != supervisor.SessNeedsPermission {
			t.Errorf("read %s with the request %+v beside it", info.State, info.WaitingOn)
		}
		close(pr.release)
		synctest.Wait()
		if info := h.session(task.ID); info.State != supervisor.SessNeedsPermission || info.WaitingOn == nil {
			t.Errorf("after the goroutine took the request: %s %+v", info.State, info.WaitingOn)
		}
	})
}
