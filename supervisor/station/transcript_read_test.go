package station

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// A transcript is read by session or task id, ended sessions too, and an
// id can never name a file outside logs/ (the token is in the home).
func TestTranscriptByTaskOrSessionAndNothingElse(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", 5*time.Minute, 5*time.Minute))
		task := h.add("web", "talk")
		p := h.proc()
		p.say("hello\r\n")
		synctest.Wait()
		p.exit(0)
		synctest.Wait()
		for _, id := range []string{task.ID, task.ID + ".1"} {
			tr, err := h.st.Sessions.Transcript(id, 0)
			if err != nil || tr.SessionID != task.ID+".1" || string(tr.Data) != "hello\r\n" || tr.Live {
				t.Errorf("Transcript(%s) = %+v, %v", id, tr, err)
			}
		}
		if tr, err := h.st.Sessions.Transcript(task.ID, -3); err != nil || string(tr.Data) != "o\r\n" || tr.From != 4 {
			t.Errorf("the last 3 bytes: %+v, %v", tr, err)
		}
		if err := os.WriteFile(filepath.Join(h.st.opt.Home, "token"), []byte("secret"), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"../token", "..", "t1/../../token", "*", "t9"} {
			if tr, err := h.st.Sessions.Transcript(id, 0); err == nil || !(errors.Is(err, supervisor.ErrInvalid) || errors.Is(err, supervisor.ErrNotFound)) {
				t.Errorf("Transcript(%q) = %q, %v; want refused", id, tr.Data, err)
			}
		}
	})
}
