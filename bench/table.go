//go:build linux

package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"unicode/utf8"
)

// row is one line of the table. met is "yes", "NO" or "" when the figure
// has no target.
type row struct {
	figure, ours, baseline, ratio, target, met string
	note                                       string
}

type table struct {
	rows []row
	took []string // "figure duration", in the order run
}

func (t *table) add(r row) {
	t.rows = append(t.rows, r)
	progress("%s: %s (baseline %s)", r.figure, r.ours, orDash(r.baseline))
}

func (t *table) failed() bool {
	for _, r := range t.rows {
		if r.ours == "FAILED" {
			return true
		}
	}
	return false
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func metString(ok bool) string {
	if ok {
		return "yes"
	}
	return "NO"
}

// print writes the table with aligned columns, then the rows' notes.
func (t *table) print(w io.Writer) {
	head := []string{"figure", "ours", "baseline", "ratio", "target", "met?"}
	cells := [][]string{head}
	for _, r := range t.rows {
		cells = append(cells, []string{r.figure, orDash(r.ours), orDash(r.baseline), orDash(r.ratio), orDash(r.target), orDash(r.met)})
	}
	width := make([]int, len(head))
	for _, c := range cells {
		for i, s := range c {
			width[i] = max(width[i], utf8.RuneCountInString(s))
		}
	}
	line := func(c []string) {
		var b strings.Builder
		for i, s := range c {
			if i > 0 {
				b.WriteString(" | ")
			}
			b.WriteString(s)
			if i < len(c)-1 {
				b.WriteString(strings.Repeat(" ", width[i]-utf8.RuneCountInString(s)))
			}
		}
		fmt.Fprintln(w, b.String())
	}
	line(cells[0])
	sep := make([]string, len(head))
	for i := range sep {
		sep[i] = strings.Repeat("-", width[i])
	}
	fmt.Fprintln(w, strings.Join(sep, "-|-"))
	for _, c := range cells[1:] {
		line(c)
	}
	var notes []string
	for _, r := range t.rows {
		if r.note != "" {
			notes = append(notes, fmt.Sprintf("  %s: %s", r.figure, r.note))
		}
	}
	if len(notes) > 0 {
		fmt.Fprintln(w, "\nbaselines and notes:")
		for _, n := range notes {
			fmt.Fprintln(w, n)
		}
	}
}

func absPath(p string) (string, error) {
	a, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(a); err != nil {
		return "", fmt.Errorf("the binary to measure: %w; build it first (make build-station)", err)
	}
	return a, nil
}

func numCPU() int { return runtime.NumCPU() }

func kernel() string {
	b, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	return "linux " + strings.TrimSpace(string(b))
}

func pct(v float64) string { return fmt.Sprintf("%.2f%%", v) }

func mib(kib float64) string { return fmt.Sprintf("%.1f MiB", kib/1024) }

func ratio(ours, base float64) string {
	if base == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f×", ours/base)
}
