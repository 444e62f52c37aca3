package config

import (
	"strconv"
	"strings"
)

// locator knows the line each key of a config file is written on.
//
// BurntSushi/toml keeps key positions private, and names keys inside arrays
// of tables without their index, so it cannot say which [[projects]] entry a
// bad key is in. The locator rescans the text, which the decoder has already
// accepted as valid TOML, and records every key, table header and inline
// table under the same keyPath names the checker uses.
type locator map[string]int

// locate scans text. It tolerates any input: on text it does not understand
// it moves on rather than stopping or looping, so a gap in it costs at most a
// less precise line, never a hang.
func locate(text string) locator {
	sc := &scanner{s: text, line: 1, lines: locator{}, arrays: map[string]int{}}
	var table keyPath
	for sc.i < len(sc.s) {
		switch c := sc.s[sc.i]; {
		case c == '\n':
			sc.line++
			sc.i++
		case c == ' ' || c == '\t' || c == '\r':
			sc.i++
		case c == '#':
			sc.comment()
		case c == '[':
			table = sc.header()
		default:
			start := sc.i
			sc.keyValue(table)
			if sc.i == start {
				sc.i++
			}
		}
	}
	return sc.lines
}

// line returns the line of key, or of its nearest enclosing table when the
// key is not written (a missing name is reported at its [[projects]] header),
// or 1 when nothing encloses it.
func (l locator) line(key keyPath) int {
	for ; len(key) > 0; key = key.parent() {
		if n, ok := l[key.String()]; ok {
			return n
		}
	}
	return 1
}

type scanner struct {
	s      string
	i      int
	line   int
	lines  locator
	arrays map[string]int // array-of-tables name → entries seen so far
}

func (sc *scanner) peek() byte {
	if sc.i < len(sc.s) {
		return sc.s[sc.i]
	}
	return 0
}

func (sc *scanner) record(k keyPath) {
	name := k.String()
	if _, ok := sc.lines[name]; !ok {
		sc.lines[name] = sc.line
	}
}

func (sc *scanner) comment() {
	for sc.i < len(sc.s) && sc.s[sc.i] != '\n' {
		sc.i++
	}
}

// space skips spaces and tabs within a line.
func (sc *scanner) space() {
	for sc.i < len(sc.s) && (sc.s[sc.i] == ' ' || sc.s[sc.i] == '\t') {
		sc.i++
	}
}

// blank skips whitespace, newlines and comments, as allowed inside arrays
// (and inline tables, since TOML 1.1).
func (sc *scanner) blank() {
	for sc.i < len(sc.s) {
		switch sc.s[sc.i] {
		case '\n':
			sc.line++
			sc.i++
		case ' ', '\t', '\r':
			sc.i++
		case '#':
			sc.comment()
		default:
			return
		}
	}
}

// header reads [a.b] or [[a.b]] and returns the table it opens. An array
// of tables gets its next index; a name under one refers to its last entry.
func (sc *scanner) header() keyPath {
	array := strings.HasPrefix(sc.s[sc.i:], "[[")
	if array {
		sc.i += 2
	} else {
		sc.i++
	}
	segs := sc.key()
	var k keyPath
	for j, seg := range segs {
		k = k.with(seg)
		name := k.String()
		if array && j == len(segs)-1 {
			n := sc.arrays[name]
			sc.arrays[name] = n + 1
			sc.record(k)
			k = k.at(n)
		} else if n, ok := sc.arrays[name]; ok {
			sc.record(k)
			k = k.at(n - 1)
		}
		sc.record(k)
	}
	for sc.i < len(sc.s) && sc.s[sc.i] != ']' && sc.s[sc.i] != '\n' {
		sc.i++
	}
	for sc.i < len(sc.s) && sc.s[sc.i] == ']' {
		sc.i++
	}
	return k
}

// keyValue reads key = value inside table and records the key (and, for a
// dotted key, the tables it implies).
func (sc *scanner) keyValue(table keyPath) {
	segs := sc.key()
	if len(segs) == 0 {
		return
	}
	sc.space()
	if sc.peek() != '=' {
		return
	}
	sc.i++
	k := table
	for _, seg := range segs {
		k = k.with(seg)
		sc.record(k)
	}
	sc.value(k)
}

// key reads a possibly dotted, possibly quoted key.
func (sc *scanner) key() []string {
	var segs []string
	for {
		sc.space()
		seg, ok := sc.keyPart()
		if !ok {
			return segs
		}
		segs = append(segs, seg)
		sc.space()
		if sc.peek() != '.' {
			return segs
		}
		sc.i++
	}
}

func (sc *scanner) keyPart() (string, bool) {
	switch sc.peek() {
	case '"':
		start := sc.i
		sc.basic()
		raw := sc.s[start:sc.i]
		if s, err := strconv.Unquote(raw); err == nil {
			return s, true
		}
		return strings.Trim(raw, `"`), true
	case '\'':
		start := sc.i + 1
		sc.literal()
		return strings.TrimSuffix(sc.s[start:sc.i], "'"), true
	}
	start := sc.i
	for sc.i < len(sc.s) && isBareByte(sc.s[sc.i]) {
		sc.i++
	}
	return sc.s[start:sc.i], sc.i > start
}

// value skips one value, recording the keys of any inline tables in it.
func (sc *scanner) value(k keyPath) {
	sc.space()
	rest := sc.s[sc.i:]
	switch {
	case strings.HasPrefix(rest, `"""`):
		sc.multiline(`"""`)
	case strings.HasPrefix(rest, `'''`):
		sc.multiline(`'''`)
	case strings.HasPrefix(rest, `"`):
		sc.basic()
	case strings.HasPrefix(rest, `'`):
		sc.literal()
	case strings.HasPrefix(rest, `[`):
		sc.array(k)
	case strings.HasPrefix(rest, `{`):
		sc.inlineTable(k)
	default: // number, bool, date: ends at a separator or the line's end
		for sc.i < len(sc.s) && !strings.ContainsRune(",]}\n#", rune(sc.s[sc.i])) {
			sc.i++
		}
	}
}

// basic skips a "string" with escapes; it stops at a newline, which a
// valid one never contains, so the line count stays right.
func (sc *scanner) basic() {
	sc.i++
	for sc.i < len(sc.s) {
		switch sc.s[sc.i] {
		case '\\':
			sc.i += 2
		case '"':
			sc.i++
			return
		case '\n':
			return
		default:
			sc.i++
		}
	}
	sc.i = min(sc.i, len(sc.s))
}

func (sc *scanner) literal() {
	sc.i++
	for sc.i < len(sc.s) && sc.s[sc.i] != '\'' && sc.s[sc.i] != '\n' {
		sc.i++
	}
	if sc.peek() == '\'' {
		sc.i++
	}
}

// multiline skips a triple-quoted string, counting its lines. Up to two
// quotes may end the content right before the closing delimiter.
func (sc *scanner) multiline(delim string) {
	sc.i += 3
	for sc.i < len(sc.s) {
		switch {
		case delim == `"""` && sc.s[sc.i] == '\\':
			sc.i++
			if sc.peek() == '\n' {
				sc.line++
			}
			sc.i++
		case strings.HasPrefix(sc.s[sc.i:], delim):
			sc.i += 3
			for extra := 0; extra < 2 && sc.peek() == delim[0]; extra++ {
				sc.i++
			}
			return
		default:
			if sc.s[sc.i] == '\n' {
				sc.line++
			}
			sc.i++
		}
	}
	sc.i = min(sc.i, len(sc.s))
}

// array skips [a, b, …]; an inline table inside is recorded as k[i].
func (sc *scanner) array(k keyPath) {
	sc.i++
	for n := 0; sc.i < len(sc.s); {
		sc.blank()
		switch sc.peek() {
		case 0:
			return
		case ']':
			sc.i++
			return
		case ',':
			sc.i++
			n++
			continue
		}
		start := sc.i
		sc.value(k.at(n))
		if sc.i == start {
			sc.i++
		}
	}
}

// inlineTable skips { a = 1, b = 2 }, recording k and its keys.
func (sc *scanner) inlineTable(k keyPath) {
	sc.record(k)
	sc.i++
	for sc.i < len(sc.s) {
		sc.blank()
		switch sc.peek() {
		case 0:
			return
		case '}':
			sc.i++
			return
		case ',':
			sc.i++
			continue
		}
		start := sc.i
		sc.keyValue(k)
		if sc.i == start {
			sc.i++
		}
	}
}
