package config

import (
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/buildstation/buildstation/internal/atomicfile"
)

// EditProject sets (or, with an empty value, removes) per-project override
// keys of project name in the file's text, and returns the new text and its
// parsed config. It edits lines in place, so the rest of the file — comments,
// order, other projects — stays as the person wrote it; the result is
// validated as a whole before anything is returned, so a bad value is
// refused with the usual file:line:key error and nothing is written. plat
// is the machine's defaults the file is read with (Config.Platform).
func EditProject(path string, data []byte, name string, set map[string]string, plat Platform) ([]byte, *Config, error) {
	cfg, err := Parse(path, data, plat)
	if err != nil {
		return nil, nil, err
	}
	idx := slices.IndexFunc(cfg.Projects, func(p Project) bool { return p.Name == name })
	if idx < 0 {
		return nil, nil, fmt.Errorf("no project %q in %s; add it to the file first", name, path)
	}
	text := string(data)
	loc := locate(text)
	table := keyPath{"projects"}.at(idx)
	header, ok := loc[table.String()]
	if !ok {
		return nil, nil, fmt.Errorf("%s: project %q is not written as a [[projects]] table; edit it by hand", path, name)
	}
	lines := strings.SplitAfter(text, "\n")
	edits, err := projectEdits(path, lines, loc, table, header, set)
	if err != nil {
		return nil, nil, err
	}
	out := []byte(strings.Join(applyEdits(lines, edits), ""))
	ncfg, err := Parse(path, out, plat)
	if err != nil {
		return nil, nil, err
	}
	return out, ncfg, nil
}

// lineEdit is one change to a file's lines.
type lineEdit struct {
	line    int // 1-based; replace this line, or insert after it
	replace bool
	text    string // "" with replace deletes the line
}

// projectEdits plans the line edits that set keys of the project table
// whose header is on line header: a key already there is replaced (or
// deleted), a new one goes under the header. A key outside EditableKeys,
// or one written over several lines, is refused.
func projectEdits(path string, lines []string, loc locator, table keyPath, header int, set map[string]string) ([]lineEdit, error) {
	var edits []lineEdit
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(EditableKeys, k) {
			return nil, fmt.Errorf("%q cannot be edited here; use one of %s, or edit %s by hand", k, strings.Join(EditableKeys, ", "), path)
		}
		v := set[k]
		newLine := ""
		if v != "" {
			newLine = k + " = " + tomlString(v) + "\n"
		}
		if n, ok := loc[table.with(k).String()]; ok {
			if cur := strings.TrimSpace(lines[n-1]); !strings.HasPrefix(cur, k) || strings.Count(cur, `"""`)+strings.Count(cur, `'''`) == 1 {
				return nil, fmt.Errorf("%s:%d: %s spans lines; edit it by hand", path, n, table.with(k))
			}
			edits = append(edits, lineEdit{line: n, replace: true, text: newLine})
		} else if newLine != "" {
			edits = append(edits, lineEdit{line: header, text: newLine})
		}
	}
	return edits, nil
}

// applyEdits carries out edits on lines, from the bottom up so earlier
// line numbers stay true.
func applyEdits(lines []string, edits []lineEdit) []string {
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].line > edits[j].line })
	for _, e := range edits {
		if e.replace {
			lines = slices.Replace(lines, e.line-1, e.line, e.text)
		} else {
			if !strings.HasSuffix(lines[e.line-1], "\n") {
				lines[e.line-1] += "\n"
			}
			lines = slices.Insert(lines, e.line, e.text)
		}
	}
	return lines
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// WriteFile replaces path with data atomically (internal/atomicfile),
// keeping the old file's mode, so a crash never leaves half a config.
func WriteFile(path string, data []byte) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	return atomicfile.Write(path, data, mode)
}
