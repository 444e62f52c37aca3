// Package plaintext makes text from agents and boards safe to show: it
// removes terminal escape sequences (OSC 52 clipboard writes, title
// changes, cursor moves), control characters and bidi overrides, so a block
// reason or a task title cannot act on the terminal or the desktop that
// shows it. Line breaks and tabs stay.
package plaintext

import (
	"strings"
	"unicode/utf8"
)

const esc = 0x1b

// Clean returns s with every escape sequence and control character removed,
// except '\n' and '\t'; '\r' becomes '\n' unless it starts a "\r\n". Invalid
// UTF-8 becomes U+FFFD.
func Clean(s string) string {
	if isClean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c == esc {
			i = skipEscape(s, i+1)
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
			i++
			continue
		}
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r == '\r':
			if i+1 >= len(s) || s[i+1] != '\n' {
				b.WriteByte('\n')
			}
		case r == 0x9b: // C1 CSI
			i = skipCSI(s, i+size)
			continue
		case r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f: // C1 OSC, DCS, SOS, PM, APC
			i = skipString(s, i+size)
			continue
		case drop(r):
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// Line is Clean with every line break and tab turned into one space, for a
// place that shows one line (a notification's title, a terminal table).
func Line(s string) string {
	s = Clean(s)
	if !strings.ContainsAny(s, "\n\t") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// isClean reports whether s needs no change: the common case, kept cheap.
func isClean(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || r == '\r' || (r != '\n' && r != '\t' && drop(r)) || r == esc {
			return false
		}
	}
	return true
}

// drop is true for the characters that are removed: C0 and C1 controls, DEL,
// and the bidi controls that reorder what a reader sees.
func drop(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
}

// skipEscape returns the index just after the escape sequence whose ESC was
// at i-1.
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
	// ESC, intermediates (0x20–0x2f), one final byte.
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) {
		i++
	}
	return i
}

// skipCSI skips parameters and intermediates up to the final byte
// (0x40–0x7e); a byte outside the sequence's alphabet ends it too.
func skipCSI(s string, i int) int {
	for i < len(s) {
		c := s[i]
		i++
		if c >= 0x40 && c <= 0x7e {
			return i
		}
		if c < 0x20 || c >= 0x7f {
			return i
		}
	}
	return i
}

// skipString skips an OSC/DCS/SOS/PM/APC payload up to its terminator: BEL,
// ESC \ or the C1 ST; an unterminated one runs to the end of s, so none of
// its payload is shown.
func skipString(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == esc:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i + 1
		case strings.HasPrefix(s[i:], "\u009c"):
			return i + len("\u009c")
		}
		i++
	}
	return i
}
