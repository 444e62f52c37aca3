package app

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/buildstation/buildstation/supervisor"
)

// EvidenceRow is one layer's line in the table behind a nudge or a block:
// what the layer showed and when.
type EvidenceRow struct {
	Layer  string // "console", "commits", "cpu", "board", "gate"
	Showed string // "output, last line \"Taking the schema lock…\"", "nothing"
	When   string // "05:33:05 (10m0s ago)"; "" when the layer showed nothing
}

// evidence is what a card shows of the watchdog's verdict: its headline
// and a row per layer; zero when there is no verdict to explain.
type evidence struct {
	Head string
	Rows []EvidenceRow
}

// clockRe finds the time a layer last showed life in a block reason:
// "05:33:05", with the station's "(10m0s ago)" after it.
var clockRe = regexp.MustCompile(`\b\d{2}:\d{2}:\d{2}\b( \([^)]*ago\))?`)

// layerRe is a reason's segment that names a layer: "cpu: nothing".
var layerRe = regexp.MustCompile(`^([a-z][a-z0-9_-]*): (.*)$`)

// ParseEvidence splits a block reason the watchdog wrote ("watchdog: no
// sign of life …; console: last output 05:33:05 (10m ago), last line
// "…"; commits: nothing; cpu: last life 05:30:12; gate: passes on HEAD
// dfc0702") into its headline and a row per layer. A reason that names no
// layer (an agent's own block_task reason) is all headline.
func ParseEvidence(reason string) evidence {
	parts := splitReason(reason)
	if len(parts) < 2 {
		return evidence{Head: reason}
	}
	ev := evidence{Head: parts[0]}
	for _, p := range parts[1:] {
		m := layerRe.FindStringSubmatch(p)
		if m == nil {
			return evidence{Head: reason} // not the watchdog's shape: say it whole
		}
		ev.Rows = append(ev.Rows, layerRow(m[1], m[2]))
	}
	return ev
}

// layerRow takes the time out of a layer's text, so the table has a
// column for when and one for what.
func layerRow(layer, text string) EvidenceRow {
	r := EvidenceRow{Layer: layer}
	if loc := clockRe.FindStringIndex(text); loc != nil {
		r.When = text[loc[0]:loc[1]]
		text = text[:loc[0]] + text[loc[1]:]
	}
	text = strings.Trim(strings.Join(strings.Fields(text), " "), " ,")
	text = strings.ReplaceAll(text, " ,", ",")
	text = strings.TrimPrefix(text, "last ")
	if text == "life" {
		text = "sign of life"
	}
	r.Showed = text
	return r
}

// splitReason splits at "; " outside double quotes: a quoted last line
// may hold "; " of its own.
func splitReason(s string) []string {
	var out []string
	quoted, escaped, start := false, false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case escaped:
			escaped = false
		case c == '\\' && quoted:
			escaped = true
		case c == '"':
			quoted = !quoted
		case c == ';' && !quoted && i+1 < len(s) && s[i+1] == ' ':
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 2
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// knownLayers are the layers every station has beside the console (the
// board, and the commits and CPU probers), listed even when they showed
// nothing.
var knownLayers = []string{"commits", "cpu", "board"}

// SessionEvidence is the table behind a nudge a live session is under (or
// heading for): when the console last printed and when each other layer
// last showed life, from the session's JSON. Absolute times only: the
// board redraws a card when what it shows changes, not every second.
func SessionEvidence(si supervisor.SessionInfo) evidence {
	ev := evidence{Head: si.Why}
	console := EvidenceRow{Layer: "console", Showed: "nothing yet"}
	if !si.LastOutputAt.IsZero() {
		console = EvidenceRow{Layer: "console", Showed: "output", When: si.LastOutputAt.Local().Format(time.TimeOnly)}
	}
	if si.LastLine != "" {
		// The nudge notice's words: what a person read there, they
		// find here.
		console.Showed += ", last line '" + si.LastLine + "'"
	}
	ev.Rows = append(ev.Rows, console)
	layers := slices.Clone(knownLayers)
	for l := range si.Evidence {
		if l != "console" && !slices.Contains(layers, l) { // the console has its row
			layers = append(layers, l)
		}
	}
	slices.Sort(layers[len(knownLayers):])
	for _, l := range layers {
		r := EvidenceRow{Layer: l, Showed: "nothing"}
		if at, ok := si.Evidence[l]; ok && !at.IsZero() {
			r = EvidenceRow{Layer: l, Showed: "sign of life", When: at.Local().Format(time.TimeOnly)}
		}
		ev.Rows = append(ev.Rows, r)
	}
	return ev
}

// evidenceFor is what a task's card explains: a blocked task's reason as
// the watchdog wrote it, or the evidence of a session that was nudged or
// went idle; zero otherwise.
func evidenceFor(t supervisor.Task, si *supervisor.SessionInfo) evidence {
	if t.State == supervisor.TaskBlocked && t.Reason != "" {
		return ParseEvidence(t.Reason)
	}
	if si != nil && (si.State == supervisor.SessNudged || si.State == supervisor.SessIdle) {
		return SessionEvidence(*si)
	}
	return evidence{}
}

// evidenceView draws the headline and the table: a row per layer with
// its name, when and what it showed. Compact (a card) cuts each row to
// one line; the pane wraps them.
func evidenceView(ev evidence, compact bool) []fyne.CanvasObject {
	var out []fyne.CanvasObject
	if ev.Head != "" {
		out = append(out, wrapped(ev.Head, widget.DangerImportance))
	}
	if len(ev.Rows) == 0 {
		return out
	}
	table := container.New(layout.NewFormLayout())
	for _, r := range ev.Rows {
		name := widget.NewLabelWithStyle(r.Layer, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		text := r.Showed
		if r.When != "" {
			text = r.When + " · " + r.Showed
			if compact {
				// The clock alone: "(10m0s ago)" is for the pane.
				text = strings.Fields(r.When)[0] + " · " + r.Showed
			}
		}
		what := widget.NewLabel(text)
		// Wrapped, on the board's narrow cards too: a quoted line cut
		// to "…" would not say what the notice said.
		what.Wrapping = fyne.TextWrapWord
		if r.When == "" {
			what.Importance = widget.LowImportance
		}
		table.Add(name)
		table.Add(what)
	}
	return append(out, table)
}

// String is the table as text, for tests and logs.
func (ev evidence) String() string {
	var b strings.Builder
	b.WriteString(ev.Head)
	for _, r := range ev.Rows {
		fmt.Fprintf(&b, "\n%s | %s | %s", r.Layer, r.When, r.Showed)
	}
	return b.String()
}
