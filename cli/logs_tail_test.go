package cli_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/cli"
)

// logs renders a transcript's last bytes only (an emulator renders a few
// MB a second, a transcript may be gigabytes), from the first whole line in
// them, after a line that says how much was skipped and how to get it all;
// --raw still prints every byte.
func TestLogsRendersTheTail(t *testing.T) {
	const tail = 64 << 10
	defer cli.SetLogsTail(cli.SetLogsTail(tail))
	s := startBoard(t)
	var raw strings.Builder
	for i := 0; raw.Len() < 3*tail; i++ {
		fmt.Fprintf(&raw, "old line %06d\r\n", i)
	}
	var want []string
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&raw, "new line %06d\r\n", i)
		want = append(want, fmt.Sprintf("new line %06d", i))
	}
	all := raw.String()
	skipped := len(all) - tail
	skipped += strings.IndexByte(all[skipped:], '\n') + 1 // from the first whole line
	s.env.Transcript(t, "t2.1", []byte(all))

	out := s.ok(t, "logs", "t2")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if !strings.Contains(lines[0], "earlier output skipped") || !strings.Contains(lines[0], "--raw") ||
		!strings.Contains(lines[0], fmt.Sprint(skipped)) {
		t.Errorf("logs began with %q; want a line saying %d bytes of earlier output were skipped and --raw has them", lines[0], skipped)
	}
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "old line ") && !strings.HasPrefix(l, "new line ") || len(l) != len("old line 000000") {
			t.Fatalf("logs printed %q: not a whole line of the transcript", l)
		}
	}
	if got := strings.Join(lines[len(lines)-len(want):], "\n"); got != strings.Join(want, "\n") {
		t.Errorf("logs did not end with the transcript's last %d lines", len(want))
	}
	if n := len(lines) - 1; n > tail/len("old line 000000\r\n")+1 {
		t.Errorf("logs printed %d lines: more than the last %d bytes hold", n, tail)
	}
	if got := s.ok(t, "logs", "t2", "--raw"); got != all {
		t.Errorf("logs --raw printed %d bytes, want all %d", len(got), len(all))
	}
}
