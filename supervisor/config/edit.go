package config

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"strconv"
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
	// A project runs an agent or a command, never both: choosing one
	// drops the other.
	_, hasAgent := set["agent"]
	_, hasCommand := set["command"]
	switch {
	case set["agent"] != "" && !hasCommand:
		set = maps.Clone(set)
		set["command"] = ""
	case set["command"] != "" && !hasAgent:
		set = maps.Clone(set)
		set["agent"] = ""
	}
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
// deleted), a new one goes under the header. A key outside ProjectKeys,
// or one written over several lines, is refused.
func projectEdits(path string, lines []string, loc locator, table keyPath, header int, set map[string]string) ([]lineEdit, error) {
	var edits []lineEdit
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k == "name" {
			return nil, fmt.Errorf(`"name" cannot be changed here: tasks find their project by it; add the folder again under the new name and remove the old project`)
		}
		if !slices.Contains(ProjectKeys, k) {
			return nil, fmt.Errorf("%q is not a project key; use one of %s", k, strings.Join(ProjectKeys, ", "))
		}
		v := set[k]
		newLine := ""
		if v != "" {
			val, err := tomlValue(k, v)
			if err != nil {
				return nil, err
			}
			newLine = k + " = " + val + "\n"
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

// tomlValue is v written as project key k's declared type wants: a
// number, a boolean, an array of words (v split as a shell would, or a
// TOML array as written), else a string. The whole file is validated
// after, so only what would be misread is refused here.
func tomlValue(k, v string) (string, error) {
	v = strings.TrimSpace(v)
	switch projectKeyType(k) {
	case "integer":
		if _, err := strconv.Atoi(v); err != nil {
			return "", fmt.Errorf("%s must be a whole number, like 2; got %q", k, v)
		}
		return v, nil
	case "number":
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			return "", fmt.Errorf("%s must be a number, like 20 or 2.50; got %q", k, v)
		}
		return v, nil
	case "boolean":
		b, err := strconv.ParseBool(v)
		if err != nil {
			return "", fmt.Errorf("%s must be true or false; got %q", k, v)
		}
		return strconv.FormatBool(b), nil
	case "array of strings":
		if strings.HasPrefix(v, "[") {
			return v, nil
		}
		words, err := splitWords(v)
		if err != nil {
			return "", fmt.Errorf("%s: %w", k, err)
		}
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = tomlString(w)
		}
		return "[" + strings.Join(quoted, ", ") + "]", nil
	}
	return tomlString(v), nil
}

// splitWords splits s into words at spaces, as a shell would for plain
// words and "double" or 'single' quoted ones (no variables, no escapes
// but \" and \\ inside double quotes).
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote == '"' && r == '\\' && i+1 < len(rs) && (rs[i+1] == '"' || rs[i+1] == '\\'):
			i++
			cur.WriteRune(rs[i])
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("a quote is not closed in %q", s)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
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
