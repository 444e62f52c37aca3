package gitwt

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTail(t *testing.T) {
	var many []string
	for i := range 100 {
		many = append(many, strings.Repeat("x", i%7)+"line")
	}
	long := strings.Repeat("é", 5000) // one 10 KB line of two-byte runes

	for _, tc := range []struct {
		name, in      string
		lines, maxLen int
		suffix        string
	}{
		{"short", "a\nb\n\n", 2, 3, "b"},
		{"many lines", strings.Join(many, "\n"), 40, tailBytes, many[99]},
		{"one long line", long, 1, tailBytes, "é"},
		{"long lines", strings.Repeat(strings.Repeat("y", 300)+"\n", 30) + "end", 0, tailBytes, "\nend"},
	} {
		got := tail(tc.in)
		if tc.lines > 0 && strings.Count(got, "\n")+1 != tc.lines {
			t.Errorf("%s: %d lines, want %d", tc.name, strings.Count(got, "\n")+1, tc.lines)
		}
		if len(got) > tc.maxLen || !utf8.ValidString(got) || !strings.HasSuffix(got, tc.suffix) {
			t.Errorf("%s: tail of %d bytes, valid %v, suffix %q", tc.name, len(got), utf8.ValidString(got), tc.suffix)
		}
		if tc.name == "long lines" && !strings.HasPrefix(got, "y") {
			t.Errorf("%s: tail starts mid-line: %.20q", tc.name, got)
		}
	}

	var b tailBuffer
	b.max = 10
	b.Write([]byte("0123456789"))
	b.Write([]byte("abc"))
	if got := b.String(); got != "3456789abc" {
		t.Errorf("tailBuffer kept %q", got)
	}
}
