package cli_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/cli"
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

// A build without the renderer (the light command line) hands a rendered
// logs to the app with the same id and -f, and prints --raw itself; with
// no app to hand it to, it says to use --raw.
func TestLogsRenderedByTheApp(t *testing.T) {
	s := startBoard(t)
	raw := "plain line\r\n"
	s.env.Transcript(t, "t2.1", []byte(raw))
	var handed []string
	light := cli.Deps{Roles: cli.Roles{Logs: func(_ context.Context, home string, args []string) int {
		handed = append([]string{home}, args...)
		return 3
	}}}
	r := runWith(t, light, "", "--home", s.home, "logs", "-f", "t2")
	if r.code != 3 || !slices.Equal(handed, []string{s.home, "t2", "--follow"}) {
		t.Errorf("logs -f t2 without a renderer: exit %d, handed %q; want exit 3 from the app, handed [home t2 --follow]", r.code, handed)
	}
	handed = nil
	if r := runWith(t, light, "", "--home", s.home, "logs", "--raw", "t2"); r.code != 0 || r.stdout != raw || handed != nil {
		t.Errorf("logs --raw without a renderer: exit %d %q, handed %q; want the bytes, printed here", r.code, r.stdout, handed)
	}
	if r := runWith(t, cli.Deps{}, "", "--home", s.home, "logs", "t2"); r.code != 1 || !strings.Contains(r.stderr, "--raw") {
		t.Errorf("logs in a build that can neither render nor hand it over: exit %d %q", r.code, r.stderr)
	}
}
