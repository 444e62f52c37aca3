package cli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
)

// A block reason (an agent writes it) with OSC 52, which sets the reader's
// clipboard, and OSC 0, which sets the window title: the human output never
// carries an escape to the terminal; --json keeps the board's exact text.
func TestBoardStringsCannotReachTheTerminal(t *testing.T) {
	s := startBoard(t)
	hostile := "wedged\x1b]52;c;cm0gLXJmIH4K\x07 on\x1b]0;owned\x1b\\ purpose\x1b[2K\r\u009b31m"
	s.ok(t, "task", "add", "--project", "web", "--title", "title\x1b]0;owned\x07", "--body", "line one\n\x1b]52;c;eA==\x07line two")
	s.block(t, "t1", hostile)
	for _, args := range [][]string{{"task", "ls"}, {"task", "show", "t1"}} {
		out := s.ok(t, args...)
		if strings.ContainsAny(out, "\x1b\x07\r\u009b") {
			t.Errorf("%v printed a control character: %q", args, out)
		}
		if !strings.Contains(out, "wedged on purpose") {
			t.Errorf("%v lost the reason's text: %q", args, out)
		}
	}
	if show := s.ok(t, "task", "show", "t1"); !strings.Contains(show, "line one\nline two") {
		t.Errorf("the body's lines are kept: %q", show)
	}
	var got supervisor.Task
	if err := json.Unmarshal([]byte(s.ok(t, "task", "show", "t1", "--json")), &got); err != nil {
		t.Fatal(err)
	}
	if got.Reason != hostile || got.Title != "title\x1b]0;owned\x07" {
		t.Errorf("--json must be exact: reason %q title %q", got.Reason, got.Title)
	}
}
