package station

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// A cancel made with the station token from inside a session is recorded
// as that session's, never as "a person"'s.
func TestCancelFromInsideASessionSaysSo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", time.Hour, time.Hour))
		victim := h.add("web", "someone else's task")
		byPerson := h.add("web", "cancelled by hand")
		got, err := h.st.Tasks.Cancel(supervisor.WithOrigin(h.ctx, "t9.1"), victim.ID)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(got.Reason, "person") || !strings.Contains(got.Reason, "session t9.1") {
			t.Errorf("reason %q, want it to name session t9.1 and no person", got.Reason)
		}
		hist, _ := h.board.History(h.ctx, victim.ID)
		if last := hist[len(hist)-1]; last.Actor != "session t9.1" {
			t.Errorf("actor %q, want session t9.1", last.Actor)
		}
		got, err = h.st.Tasks.Cancel(h.ctx, byPerson.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Reason != "cancelled by a person" {
			t.Errorf("a person's cancel reads %q", got.Reason)
		}
	})
}
