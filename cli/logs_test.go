package cli_test

import (
	"strings"
	"testing"
)

// logs renders what the screen showed: a TUI's redraws resolved, colours
// and cursor moves gone; --raw gives the bytes; a task id picks its
// session; an unknown id says what ids look like.
func TestLogs(t *testing.T) {
	s := startBoard(t)
	raw := "\x1b[31mcompiling\x1b[0m 10%\rcompiling 100%\r\n\x1b]0;title\x07done: 3 files\r\n\x1b[?25l"
	s.env.Transcript(t, "t2.1", []byte(raw))
	want := "compiling 100%\ndone: 3 files\n"
	for _, id := range []string{"t2.1", "t2"} {
		if out := s.ok(t, "logs", id); out != want {
			t.Errorf("logs %s = %q, want %q", id, out, want)
		}
	}
	if out := s.ok(t, "logs", "t2", "--raw"); out != raw {
		t.Errorf("logs --raw = %q, want the bytes %q", out, raw)
	}
	r := run(t, "", "--home", s.home, "logs", "t9")
	if r.code != 1 || !strings.Contains(r.stderr, "t2.3") {
		t.Errorf("unknown id: exit %d %q", r.code, r.stderr)
	}
}
