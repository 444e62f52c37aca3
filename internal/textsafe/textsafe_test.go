package textsafe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTyped(t *testing.T) {
	for in, want := range map[string]string{
		"fix the bug":                     "fix the bug",
		"title\r!touch /tmp/pwned\r":      "title !touch /tmp/pwned ",
		"a\nb\r\nc\td":                    "a b  c d",
		"\x1b[31mred\x1b[0m":              "red",
		"\x1b]52;c;aGVsbG8=\x07copied":    "copied",
		"\x1b]0;title\x1b\\after":         "after",
		"\x03\x04\x1a\x7fctrl":            "ctrl",
		"c1\u009b31mcsi\u009d0;x\u009cok": "c1csiok",
		"bidi\u202eevil\u202c":            "bidievil",
		"unicode ✓ naïve 日本":              "unicode ✓ naïve 日本",
		"bad \xff utf8":                   "bad \ufffd utf8",
		"cut short \x1b[":                 "cut short ",
		"\x1bc reset":                     " reset",
	} {
		if got := Typed(in); got != want {
			t.Errorf("Typed(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPrintableKeepsLines(t *testing.T) {
	in := "line one\n\tline two\x1b]52;c;Zm9v\x07\r\x1b[2J"
	if got, want := Printable(in), "line one\n\tline two"; got != want {
		t.Errorf("Printable(%q) = %q, want %q", in, got, want)
	}
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{"x\r!y", "\x1b]52;c;x\x07", "\u009b1m", "a\x1b[", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ty, pr := Typed(s), Printable(s)
		for _, out := range []string{ty, pr} {
			if !utf8.ValidString(out) {
				t.Fatalf("invalid UTF-8 out of %q: %q", s, out)
			}
			for _, r := range out {
				if isControl(r) && r != '\n' && r != '\t' {
					t.Fatalf("control %U left in %q (from %q)", r, out, s)
				}
			}
		}
		if strings.ContainsAny(ty, "\n\t") {
			t.Fatalf("Typed(%q) = %q keeps a line break or tab", s, ty)
		}
		if Typed(ty) != ty || Printable(pr) != pr {
			t.Fatalf("not idempotent on %q", s)
		}
	})
}
