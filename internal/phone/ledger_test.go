package phone

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor/outbox"
)

// A notice the service refuses is kept in the station's outbox (a real
// SQLite file) and retried with back-off; a station that stops before the
// service answers again sends it when it starts, once: a third start
// sends nothing. The phone's Allow on the replayed notice still decides
// the request, the station checking that it waits.
func TestKeptThroughARestart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), outbox.File)
		open := func() *outbox.Box {
			b, err := outbox.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { b.Close() })
			return b
		}
		r := &rig{svc: &fakeService{replies: make(chan string), down: true}}
		box := open()
		stop := r.run(t, ntfyPhone(), box)
		t0 := time.Now()
		r.events <- permission("t1.1", "npm publish", time.Now())
		time.Sleep(16 * time.Second) // tries at 0s, 5s, 15s
		synctest.Wait()
		stop()
		box.Close()
		r.svc.mu.Lock()
		var at []string
		for _, tr := range r.svc.tries {
			at = append(at, tr.Sub(t0).String())
		}
		r.svc.down = false
		r.svc.mu.Unlock()
		if got := strings.Join(at, " "); got != "0s 5s 15s" {
			t.Errorf("tries at %s; want 0s 5s 15s", got)
		}
		if owed, _ := open().OwedNotes(context.Background()); len(owed) != 1 || owed[0].Tries != 3 {
			t.Fatalf("the outbox owes %+v; want the one notice, tried 3 times", owed)
		}

		// The station starts again and the service answers.
		time.Sleep(time.Hour)
		box = open()
		stop = r.run(t, ntfyPhone(), box)
		synctest.Wait()
		notes := r.svc.sent()
		if len(notes) != 1 || notes[0].Title != "Needs you: Bash: npm publish" || len(notes[0].Choices) != 2 {
			t.Fatalf("after the restart sent %+v; want the kept permission, once, with its choices", notes)
		}
		if !strings.Contains(r.log.String(), "kept from before") {
			t.Errorf("the log does not say kept notices were sent:\n%s", r.log)
		}
		r.svc.replies <- notes[0].Choices[0].Reply.Body()
		synctest.Wait()
		r.mu.Lock()
		decided := len(r.decisions)
		r.mu.Unlock()
		if decided != 1 {
			t.Errorf("the replayed notice's Allow made %d decisions; want 1", decided)
		}
		stop()
		box.Close()

		box = open()
		if owed, _ := box.OwedNotes(context.Background()); len(owed) != 0 {
			t.Errorf("the outbox still owes %+v after the service took it", owed)
		}
		stop = r.run(t, ntfyPhone(), box)
		time.Sleep(10 * time.Minute)
		synctest.Wait()
		if n := len(r.svc.sent()); n != 1 {
			t.Errorf("a third start sent %d notices in all; want 1 (no duplicate)", n)
		}
		stop()
	})
}

// While the service does not answer, status's count of kept notices
// follows each notice kept, and the outbox holds them in order.
func TestQueuedCountFollows(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		box, err := outbox.Open(filepath.Join(t.TempDir(), outbox.File))
		if err != nil {
			t.Fatal(err)
		}
		defer box.Close()
		r := &rig{svc: &fakeService{replies: make(chan string), down: true}}
		stop := r.run(t, ntfyPhone(), box)
		defer stop()
		r.events <- permission("t1.1", "make one", time.Now())
		r.events <- permission("t2.1", "make two", time.Now())
		synctest.Wait()
		r.mu.Lock()
		last := r.health[len(r.health)-1]
		r.mu.Unlock()
		if last.OK || last.Queued != 2 {
			t.Errorf("status says %+v; want failing with 2 notices kept", last)
		}
		owed, err := box.OwedNotes(context.Background())
		if err != nil || len(owed) != 2 || !strings.Contains(string(owed[0].Note), "make one") || !strings.Contains(string(owed[1].Note), "make two") {
			t.Errorf("the outbox owes %d notices (%v); want both, in order", len(owed), err)
		}
		stop()
	})
}
