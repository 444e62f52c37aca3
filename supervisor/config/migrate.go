package config

import (
	"fmt"
	"strings"
)

// liveMark starts the comment that says a config.toml has live defaults:
// the first-run file has it in its header, and migrate adds it to a file it
// migrated, so that it migrates a file once.
const liveMark = "# Live defaults:"

// writtenDefault is a value earlier versions wrote, set, into every new
// config.toml.
type writtenDefault struct {
	table, key string
	value      any // as decoded from TOML
}

// writtenDefaults are history, not today's defaults (Keys has those): a
// file still holding one of these word for word holds it because the first
// run wrote it, and migrate comments it out so that today's default, and
// tomorrow's, applies. The second nudge is the one that said "5 minutes"
// whatever the window and named a tool generic agents do not have.
var writtenDefaults = []writtenDefault{
	{"", "max_sessions", int64(4)},
	{"defaults", "agent", "claude"},
	{"defaults", "idle_window", "5m"},
	{"defaults", "block_window", "5m"},
	{"defaults", "review_idle_window", "10m"},
	{"defaults", "cpu_alive", "10%"},
	{"defaults", "breaker", "3 in 10m"},
	{"defaults", "permission_mode", ""},
	{"defaults", "nudge", "Note: I noticed you've been silent for {idle}. If you've finished the task — run git commit and {complete}. If you're still working, just continue."},
	{"defaults", "nudge", "Note: I noticed you've been silent for 5 minutes. If you've finished the task — run git commit and call complete_task with a summary. If you're still working, just continue."},
}

// migrate comments out the lines of a valid config.toml that only repeat a
// default an earlier version wrote (writtenDefaults), and says so in a
// comment at the top (liveMark). Comments and every other line stay as they
// are. It returns the new text and which keys it commented out; none, and
// the text unchanged, for a file migrated before or with nothing to do.
func migrate(data []byte) ([]byte, []string, error) {
	text := string(data)
	if strings.Contains(text, liveMark) {
		return data, nil, nil
	}
	tree, loc, err := decode(data)
	if err != nil {
		return nil, nil, err
	}
	lines := strings.SplitAfter(text, "\n")
	var done []string
	for _, w := range writtenDefaults {
		key := keyPath{}.with(w.key)
		table := tree
		if w.table != "" {
			key = keyPath{}.with(w.table).with(w.key)
			table, _ = tree[w.table].(map[string]any)
		}
		v, ok := table[w.key]
		n, written := loc[key.String()]
		if !ok || v != w.value || !written || !singleLine(lines[n-1], w.key) {
			continue
		}
		lines[n-1] = "# " + lines[n-1]
		done = append(done, key.String())
	}
	if len(done) == 0 {
		return data, nil, nil
	}
	return []byte(strings.Join(withMark(lines, done), "")), done, nil
}

// singleLine reports whether line is key = value on one line, which
// commenting the line out removes whole.
func singleLine(line, key string) bool {
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), key)
	rest = strings.TrimSpace(rest)
	return ok && strings.HasPrefix(rest, "=") && !strings.Contains(rest, `"""`) && !strings.Contains(rest, `'''`)
}

// withMark inserts the live-defaults comment after the file's opening
// comment block.
func withMark(lines, done []string) []string {
	at := 0
	for at < len(lines) && strings.HasPrefix(lines[at], "#") {
		at++
	}
	note := wrap(fmt.Sprintf("Build Station commented out the lines that only repeated a default "+
		"an earlier version wrote (%s), so that a default changed in a newer version reaches this file. "+
		"Set a key to keep a value of your own.", strings.Join(done, ", ")), 74)
	mark := []string{"#\n", liveMark + "\n"}
	if at == 0 {
		mark = mark[1:]
	}
	for _, l := range note {
		mark = append(mark, "#   "+l+"\n")
	}
	if at == 0 {
		mark = append(mark, "\n")
	}
	return append(lines[:at:at], append(mark, lines[at:]...)...)
}
