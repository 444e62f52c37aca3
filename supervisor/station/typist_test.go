package station

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// An agent that never reads its input holds one goroutine of its session,
// whatever is typed into it: sends return, the session's goroutine goes
// on, and ending the session frees the writer.
func TestStuckTerminalHoldsOneWriter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", time.Hour, time.Hour))
		task := h.add("web", "x")
		p := h.proc()
		p.say("ready\r\n")
		s := h.session(task.ID)
		p.stick()
		before := runtime.NumGoroutine()
		for i := range 10 {
			if err := h.st.Sessions.Send(h.ctx, s.ID, fmt.Sprintf("line %d", i)); err != nil {
				t.Fatalf("send %d: %v", i, err)
			}
		}
		advance(time.Minute)
		if n := p.inWrite.Load(); n != 1 {
			t.Errorf("%d writes wait on the stuck terminal, want 1 (one writer per session)", n)
		}
		if grew := runtime.NumGoroutine() - before; grew > 0 {
			t.Errorf("10 sends into a stuck terminal left %d goroutines more", grew)
		}
		// The session's goroutine does not wait on the terminal: it answers.
		if err := h.st.Sessions.Nudge(h.ctx, s.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := h.st.Tasks.Cancel(h.ctx, task.ID); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if n := p.inWrite.Load(); n != 0 {
			t.Errorf("%d writes still wait after the session ended", n)
		}
	})
}

// Past its backlog a stuck terminal refuses more, with a sentence, rather
// than hold it without bound.
func TestStuckTerminalRefusesPastItsBacklog(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", time.Hour, time.Hour))
		task := h.add("web", "x")
		p := h.proc()
		s := h.session(task.ID)
		p.stick()
		var err error
		sent := 0
		for ; sent <= typingBacklog+1; sent++ {
			if err = h.st.Sessions.Send(h.ctx, s.ID, "more"); err != nil {
				break
			}
		}
		// One write under way, typingBacklog waiting.
		if sent != typingBacklog+1 || !errors.Is(err, supervisor.ErrConflict) || !strings.Contains(err.Error(), "does not read its input") {
			t.Fatalf("refused after %d sends with %v; want after %d, a conflict saying the agent does not read", sent, err, typingBacklog+1)
		}
		att, err := h.st.Sessions.Attach(s.ID)
		if err != nil {
			t.Fatal(err)
		}
		defer att.Close()
		if _, err := att.Input.Write([]byte("q")); err == nil || !strings.Contains(err.Error(), "does not read its input") {
			t.Fatalf("a console's keys into the full terminal: %v", err)
		}
	})
}

// A person's keys in a console go through the session's one writer: they
// never land between text the station typed and its Enter (which would
// submit them with it).
func TestConsoleKeysWaitForTheStationsEnter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", time.Hour, time.Hour))
		task := h.add("web", "x")
		p := h.proc()
		s := h.session(task.ID)
		att, err := h.st.Sessions.Attach(s.ID)
		if err != nil {
			t.Fatal(err)
		}
		defer att.Close()
		if err := h.st.Sessions.Send(h.ctx, s.ID, "hello"); err != nil {
			t.Fatal(err)
		}
		typed := make(chan error, 1)
		go func() {
			_, err := att.Input.Write([]byte("ls\r"))
			typed <- err
		}()
		advance(enterDelay + time.Second)
		if err := <-typed; err != nil {
			t.Fatal(err)
		}
		if w := p.Writes(); !slices.Equal(w, []string{"hello", "\r", "ls\r"}) {
			t.Fatalf("writes %q, want the send and its Enter, then the person's keys", w)
		}
	})
}
