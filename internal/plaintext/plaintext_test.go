package plaintext

import (
	"strings"
	"testing"
)

func TestClean(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"two\nlines\tand a tab", "two\nlines\tand a tab"},
		{"osc52 \x1b]52;c;ZWNobyBwd25lZA==\a done", "osc52  done"},
		{"title \x1b]0;pwned\x1b\\ done", "title  done"},
		{"colour \x1b[1;31mred\x1b[0m", "colour red"},
		{"cursor \x1b[2J\x1b[Hhome", "cursor home"},
		{"charset \x1b(Bx", "charset x"},
		{"c1 csi \u009b31mred", "c1 csi red"},
		{"c1 osc \u009d52;c;AAAA\u009c after", "c1 osc  after"},
		{"unterminated \x1b]52;c;AAAA", "unterminated "},
		{"cr\r!touch /tmp/x\r\n", "cr\n!touch /tmp/x\n"},
		{"bell\a nul\x00 del\x7f bs\b", "bell nul del bs"},
		{"bidi \u202eevil\u202c", "bidi evil"},
		{"bad utf8 \xff!", "bad utf8 \ufffd!"},
		{"trailing esc \x1b", "trailing esc "},
		{"ünïcödé ✓ 日本", "ünïcödé ✓ 日本"},
	} {
		if got := Clean(tc.in); got != tc.want {
			t.Errorf("Clean(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestLine(t *testing.T) {
	if got := Line("a\r\nb\t c\x1b[0m\n"); got != "a b c" {
		t.Fatalf("Line = %q", got)
	}
}

func FuzzClean(f *testing.F) {
	f.Add("x\x1b]52;c;AA\a\u009b1m\r\n")
	f.Fuzz(func(t *testing.T, s string) {
		out := Clean(s)
		for _, r := range out {
			if r != '\n' && r != '\t' && drop(r) {
				t.Fatalf("Clean(%q) = %q keeps %U", s, out, r)
			}
		}
		if strings.ContainsRune(out, esc) {
			t.Fatalf("Clean(%q) keeps ESC", s)
		}
		if Clean(out) != out {
			t.Fatalf("Clean is not idempotent on %q", s)
		}
	})
}
