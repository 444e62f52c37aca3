// Package termsafe makes text from elsewhere safe to print on a person's
// terminal. Strings on the board come from anyone who can add a task or
// from an agent (titles, bodies, block reasons, summaries, notes). Printed
// raw, an escape sequence in one would act on the reader's terminal: OSC 52
// sets the clipboard, OSC 0 the window title, CSI moves the cursor and can
// paint over earlier lines. Machine output (--json) is not for a terminal
// and stays exact.
package termsafe

import (
	"strings"
	"unicode/utf8"
)

// Line is s for one line of a terminal: escape sequences removed, every
// other control character (line breaks, tabs, C1 controls) shown as a space.
func Line(s string) string { return sanitize(s, false) }

// Lines is Line for text printed over several lines (a task's body): line
// breaks and tabs stay.
func Lines(s string) string { return sanitize(s, true) }

func sanitize(s string, multiline bool) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x1b:
			i += escapeLen(s[i:])
			continue
		case r == 0x9b, r == 0x9d, r == 0x90, r == 0x98, r == 0x9e, r == 0x9f:
			// C1 forms of CSI, OSC, DCS, SOS, PM and APC: a terminal that
			// reads 8-bit controls starts a sequence here.
			i += c1Len(s[i:], n, r == 0x9b)
			continue
		case r == utf8.RuneError && n == 1:
			b.WriteRune(utf8.RuneError)
		case multiline && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			b.WriteByte(' ')
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// isPlain is the common case: printable ASCII and valid UTF-8 with no
// controls, returned as is.
func isPlain(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == utf8.RuneError {
			return false
		}
	}
	return true
}

// escapeLen is the length of the escape sequence at the start of s (which
// starts with ESC), to its end or to the end of s.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[': // CSI: parameters and intermediates, then a final byte
		for j := 2; j < len(s); j++ {
			if c := s[j]; c >= 0x40 && c <= 0x7e {
				return j + 1
			}
		}
		return len(s)
	case ']', 'P', 'X', '^', '_': // OSC, DCS, SOS, PM, APC: a string to BEL or ST
		return 2 + stringEnd(s[2:])
	}
	return 2 // a two-byte escape (ESC 7, ESC c, …)
}

// c1Len is the length of a sequence started by an 8-bit C1 control of n
// bytes: a CSI's parameters and final byte, or a string's body and end.
func c1Len(s string, n int, csi bool) int {
	if csi {
		for j := n; j < len(s); j++ {
			if c := s[j]; c >= 0x40 && c <= 0x7e {
				return j + 1
			}
		}
		return len(s)
	}
	return n + stringEnd(s[n:])
}

// stringEnd is how far a control string's body runs: through BEL or ESC \
// (or the C1 ST), or to the end of s.
func stringEnd(s string) int {
	for j := 0; j < len(s); j++ {
		switch {
		case s[j] == 0x07:
			return j + 1
		case s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\':
			return j + 2
		case strings.HasPrefix(s[j:], "\u009c"):
			return j + len("\u009c")
		}
	}
	return len(s)
}
