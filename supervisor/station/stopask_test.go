package station

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// A stop asked through the API is a person's: from inside a session it is
// refused and nothing is asked; from outside, StopRequested closes and the
// answer names the sessions that get the grace.
func TestRequestStopIsAPersonsAndSaysWhoDrains(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", time.Minute, time.Minute))
		task := h.add("web", "long build")
		h.proc()
		s := h.session(task.ID)
		if _, err := h.st.Control.RequestStop(supervisor.WithOrigin(h.ctx, s.ID)); err == nil || !strings.Contains(err.Error(), "only a person may") {
			t.Fatalf("a session asked the station to stop: %v", err)
		}
		select {
		case <-h.st.StopRequested():
			t.Fatal("a refused stop was asked")
		default:
		}
		msg, err := h.st.Control.RequestStop(h.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(msg, "1 running session ("+s.ID+")") {
			t.Errorf("the stop said %q", msg)
		}
		select {
		case <-h.st.StopRequested():
		default:
			t.Fatal("the stop was not asked")
		}
		if _, err := h.st.Control.RequestStop(h.ctx); err != nil { // twice is fine
			t.Fatal(err)
		}
	})
}
