package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/buildstation/buildstation/internal/textsafe"
)

// now is the clock for "silent for" and "nudge in"; a var so tests can fix it.
var now = time.Now

// printJSON writes v as indented JSON, the stable --json output.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// printJSONList writes list as a JSON array, [] when it is empty: what
// every --json of a list prints.
func printJSONList[T any](w io.Writer, list []T) error {
	if list == nil {
		list = []T{}
	}
	return printJSON(w, list)
}

// table writes aligned columns.
type table struct{ tw *tabwriter.Writer }

func newTable(w io.Writer, header ...string) *table {
	t := &table{tw: tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)}
	if len(header) > 0 {
		t.row(header...)
	}
	return t
}

func (t *table) row(cols ...string) {
	for i, c := range cols {
		cols[i] = cell(c)
	}
	fmt.Fprintln(t.tw, strings.Join(cols, "\t"))
}

func (t *table) flush() error { return t.tw.Flush() }

// cell keeps a table cell on one line and short enough to read; "-" for
// nothing.
func cell(s string) string {
	s = strings.Join(strings.Fields(textsafe.Line(s)), " ")
	if s == "" {
		return "-"
	}
	const max = 60
	if r := []rune(s); len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	return s
}

// ago formats the time since t, "-" for never.
func ago(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return roundDur(now().Sub(t))
}

func roundDur(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	return d.Round(time.Second).String()
}
