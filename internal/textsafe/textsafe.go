package textsafe

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Typed returns s as one line to type into a session: every line break and
// tab becomes a space (so words stay apart) and every other control
// character, escape sequence included, is dropped. The only Enter a session
// receives is the one the station sends itself after the text.
func Typed(s string) string {
	return clean(s, func(r rune) (rune, bool) {
		switch r {
		case '\r', '\n', '\t', '\v', '\f', '\u2028', '\u2029', '\u0085':
			return ' ', true
		}
		return 0, false
	})
}

// Printable returns s with what a terminal would act on removed: escape
// sequences (their introducer and, for CSI and string sequences such as
// OSC, their body too) and every control character except newline and
// tab. Invalid UTF-8 becomes U+FFFD.
func Printable(s string) string {
	return clean(s, func(r rune) (rune, bool) {
		if r == '\n' || r == '\t' {
			return r, true
		}
		return 0, false
	})
}

// Line is Printable for one table cell or line: newlines and tabs become
// spaces as well.
func Line(s string) string { return Typed(s) }

// clean drops control characters and escape sequences from s; keep says
// what a control character becomes instead (a rune and true) if anything.
func clean(s string, keep func(rune) (rune, bool)) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			b.WriteRune(utf8.RuneError)
			i++
			continue
		}
		switch {
		case r == 0x1b: // ESC: skip the whole sequence
			i = skipEscape(s, i+size)
			continue
		case r == 0x9b: // C1 CSI
			i = skipCSI(s, i+size)
			continue
		case r == 0x90 || r == 0x9d || r == 0x9e || r == 0x9f || r == 0x98: // C1 DCS, OSC, PM, APC, SOS
			i = skipString(s, i+size)
			continue
		case isControl(r):
			if k, ok := keep(r); ok {
				b.WriteRune(k)
			}
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// isPlain is the fast path: printable ASCII, which most text is.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// isControl is C0, DEL, C1, and the Unicode line and paragraph separators
// and bidirectional overrides, which reorder what a person sees.
func isControl(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == '\u2028', r == '\u2029':
		return true
	case r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069':
		return true
	}
	return unicode.Is(unicode.Cc, r)
}

// skipEscape returns the index after the escape sequence whose ESC ended
// just before i.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_':
		return skipString(s, i+1)
	}
	// ESC, intermediates (0x20–0x2f), then one final byte.
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipCSI skips parameters and intermediates up to and including the final
// byte (0x40–0x7e).
func skipCSI(s string, i int) int {
	for i < len(s) {
		c := s[i]
		i++
		if c >= 0x40 && c <= 0x7e {
			return i
		}
		if c < 0x20 || c > 0x3f {
			return i - 1 // not a CSI byte: the sequence was cut short
		}
	}
	return i
}

// skipString skips a string sequence's body up to its terminator: BEL,
// ESC \, or C1 ST.
func skipString(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case strings.HasPrefix(s[i:], "\u009c"):
			return i + len("\u009c")
		}
		i++
	}
	return i
}
