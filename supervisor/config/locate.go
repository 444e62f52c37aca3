package config

import (
	"github.com/pelletier/go-toml/v2/unstable"
)

// locator knows the line each key of a config file is written on, under
// the keyPath names the checker uses: with "[i]" for an entry of an array
// of tables, so that an error can say which [[projects]] entry it means.
// The lines come from go-toml's parser, the one that decoded the file.
type locator map[string]int

// locate finds where each key, table header and inline table of text is
// written. On text the parser refuses it keeps what it found before the
// error: only valid text gets this far (Parse decodes first), and a gap
// costs at most a less precise line.
func locate(text string) locator {
	lines, _ := scan(text)
	return lines
}

// scan is locate that also returns the table the last expression read is
// in: where a syntax error is, when the parser stopped at one.
func scan(text string) (locator, keyPath) {
	l := &locating{lines: locator{}, arrays: map[string]int{}}
	l.p.Reset([]byte(text))
	var table keyPath
	for l.p.NextExpression() {
		switch e := l.p.Expression(); e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = l.header(e)
		case unstable.KeyValue:
			l.keyValue(table, e)
		}
	}
	return l.lines, table
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

type locating struct {
	p      unstable.Parser
	lines  locator
	arrays map[string]int // array-of-tables name → entries seen so far
}

// record notes the line n is on as key's, unless key was seen before.
func (l *locating) record(k keyPath, n *unstable.Node) {
	if _, ok := l.lines[k.String()]; !ok {
		l.lines[k.String()] = l.p.Shape(n.Raw).Start.Line
	}
}

// header records [a.b] or [[a.b]] and returns the table it opens. An array
// of tables gets its next index; a name under one refers to its last entry.
func (l *locating) header(e *unstable.Node) keyPath {
	var k keyPath
	for it := e.Key(); it.Next(); {
		seg := it.Node()
		k = k.with(string(seg.Data))
		name := k.String()
		if e.Kind == unstable.ArrayTable && it.IsLast() {
			n := l.arrays[name]
			l.arrays[name] = n + 1
			l.record(k, seg)
			k = k.at(n)
		} else if n, ok := l.arrays[name]; ok {
			l.record(k, seg)
			k = k.at(n - 1)
		}
		l.record(k, seg)
	}
	return k
}

// keyValue records key = value inside table (and, for a dotted key, the
// tables it implies), and the keys of any inline table in the value.
func (l *locating) keyValue(table keyPath, e *unstable.Node) {
	k := table
	for it := e.Key(); it.Next(); {
		k = k.with(string(it.Node().Data))
		l.record(k, it.Node())
	}
	l.value(k, e.Value())
}

// value records the inline tables in v: an inline table as k, one inside
// an array as k[i].
func (l *locating) value(k keyPath, v *unstable.Node) {
	switch v.Kind {
	case unstable.InlineTable:
		l.record(k, v)
		for it := v.Children(); it.Next(); {
			if c := it.Node(); c.Kind == unstable.KeyValue {
				l.keyValue(k, c)
			}
		}
	case unstable.Array:
		i := 0
		for it := v.Children(); it.Next(); {
			if c := it.Node(); c.Kind != unstable.Comment {
				l.value(k.at(i), c)
				i++
			}
		}
	}
}
