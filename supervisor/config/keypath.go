package config

import (
	"strconv"
	"strings"
)

// keyPath names a key the way an error message shows it: dotted segments,
// with "[i]" for an entry of an array of tables, so "projects[1].path" says
// which project is meant. The locator and the checker build keys with the
// same type so that their names always agree.
type keyPath []string

// with returns a copy extended by one key segment, quoted if TOML would
// need quotes for it.
func (k keyPath) with(seg string) keyPath {
	if !isBare(seg) {
		seg = strconv.Quote(seg)
	}
	return append(k[:len(k):len(k)], seg)
}

// at returns a copy extended by an array index.
func (k keyPath) at(i int) keyPath {
	return append(k[:len(k):len(k)], "["+strconv.Itoa(i)+"]")
}

// parent drops the last segment or index.
func (k keyPath) parent() keyPath { return k[:len(k)-1] }

func (k keyPath) String() string {
	var b strings.Builder
	for i, seg := range k {
		if i > 0 && !strings.HasPrefix(seg, "[") {
			b.WriteByte('.')
		}
		b.WriteString(seg)
	}
	return b.String()
}

// isBare reports whether s is a TOML bare key (A-Za-z0-9_-, not empty).
func isBare(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isBareByte(s[i]) {
			return false
		}
	}
	return true
}

func isBareByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}
