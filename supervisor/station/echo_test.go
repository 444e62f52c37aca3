package station

import (
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

func TestEchoFilter(t *testing.T) {
	var e echoFilter
	if e.isEcho([]byte("\r\n")) {
		t.Fatal("a line break with nothing typed is the agent's own (a heartbeat)")
	}
	e.typed("Note: you've been silent — commit.")
	e.typed("\r")
	for _, chunk := range []string{
		"Note: you'",                 // the kernel echoes in pieces
		"\x1b[32mve been\x1b[0m sil", // a TUI colours it
		"ent —\r\n commit.",          // and wraps it
		"\r\n",                       // the Enter
	} {
		if !e.isEcho([]byte(chunk)) {
			t.Errorf("%q is our echo", chunk)
		}
	}
	for _, chunk := range []string{"\r\n", ".", "Note"} {
		if e.isEcho([]byte(chunk)) {
			t.Errorf("%q came after the whole echo: it is the agent's", chunk)
		}
	}
	e.typed("hello")
	if e.isEcho([]byte("hello world")) {
		t.Error("our echo followed by the agent's words in one read is life")
	}
	e.typed("again")
	if e.isEcho([]byte("working on it")) {
		t.Error("output that is not what we typed is life, echo pending or not")
	}
}

// A loaded machine delivers a wedged agent's echo of the nudge seconds
// late. It is still our own typing: one nudge, then the block, never a
// second nudge because the echo looked like life.
func TestLateEchoOfTheNudgeIsNotLife(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", 5*time.Minute, 5*time.Minute))
		task := h.add("web", "migrate")
		p := h.proc()
		p.say("Running migration 0042...\r\n")
		advance(5*time.Minute + time.Millisecond)
		if s := h.session(task.ID); s.State != supervisor.SessNudged {
			t.Fatalf("state %v, want nudged", s.State)
		}
		advance(enterDelay)
		// The echo, 4 s and 40 s late, in pieces.
		advance(4 * time.Second)
		nudge := p.Writes()[0]
		p.say(nudge[:10])
		advance(36 * time.Second)
		p.say(nudge[10:] + "\r\n")
		synctest.Wait()
		if s := h.session(task.ID); s.State != supervisor.SessNudged {
			t.Fatalf("the late echo counted as life: state %v", s.State)
		}
		advance(5 * time.Minute)
		got := h.task(task.ID)
		if got.State != supervisor.TaskBlocked {
			t.Fatalf("task %v, want blocked one block_window after the nudge", got.State)
		}
		if !strings.Contains(got.Reason, "Running migration 0042") {
			t.Errorf("reason quotes our echo, not the agent's last line: %q", got.Reason)
		}
		if n := strings.Count(strings.Join(p.Writes(), ""), "\r"); n != 1 {
			t.Errorf("nudged %d times, want once", n)
		}
		if k := h.notes.kinds(); !slices.Equal(k, []supervisor.NoticeKind{supervisor.NoticeNudge, supervisor.NoticeBlock}) {
			t.Fatalf("notices %v, want nudge then block", k)
		}
	})
}

// A silent agent's terminal echoes the nudge, late and framed by a TUI's
// input box. That is the station's own typing: the session's last output,
// which the card turns into "printing" or "silent 5m", stays the agent's
// own line from before the nudge.
func TestEchoOfTheNudgeIsNotTheAgentsOutput(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", 5*time.Minute, 5*time.Minute))
		task := h.add("web", "migrate")
		p := h.proc()
		p.say("Running migration 0042...\r\n")
		synctest.Wait()
		own := time.Now()
		advance(5*time.Minute + time.Millisecond)
		if s := h.session(task.ID); s.State != supervisor.SessNudged {
			t.Fatalf("state %v, want nudged", s.State)
		}
		nudge := p.Writes()[0]
		// The TUI redraws its input box at once, and the echo of what was
		// typed comes in pieces, seconds later.
		p.say("\x1b[2K╭──────╮\r\n│ > ")
		advance(enterDelay)
		advance(3 * time.Second)
		p.say(nudge[:20])
		advance(2 * time.Second)
		p.say(nudge[20:] + "\r\n")
		synctest.Wait()
		s := h.session(task.ID)
		if !s.LastOutputAt.Equal(own) {
			t.Errorf("last output %s after the nudge's echo, want the agent's own line's %s (%s before)",
				s.LastOutputAt.Format(time.TimeOnly), own.Format(time.TimeOnly), s.LastOutputAt.Sub(own))
		}
		if at := s.Evidence["console"]; !at.Equal(own) {
			t.Errorf("console evidence %s, want the agent's own line's %s", at.Format(time.TimeOnly), own.Format(time.TimeOnly))
		}
		// The agent's own words later are its output again.
		advance(10 * time.Second)
		p.say("Applied 0042.\r\n")
		synctest.Wait()
		if s := h.session(task.ID); !s.LastOutputAt.Equal(time.Now()) {
			t.Errorf("last output %s, want the agent's new line at %s", s.LastOutputAt.Format(time.TimeOnly), time.Now().Format(time.TimeOnly))
		}
	})
}
