package app

import (
	"flag"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestTerminalGolden plays a recorded console (colours, bold, a carriage
// return overwrite, erase-line, more lines than the screen so some go to
// the scrollback) and compares the rows, with their styles and the cursor,
// to testdata/transcript.golden. Run with -update to accept a change.
func TestTerminalGolden(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "transcript.raw"))
	if err != nil {
		t.Fatal(err)
	}
	term := NewTerminal(40, 6, 100, nil)
	defer term.Close()
	// Feed it in small pieces, as a network read would split it.
	for len(raw) > 0 {
		n := min(7, len(raw))
		term.Write(raw[:n])
		raw = raw[n:]
	}
	got := RowsText(term.Rows())
	golden := filepath.Join("testdata", "transcript.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("rows differ from %s:\n--- got\n%s--- want\n%s", golden, got, want)
	}
}

// TestTerminalRendersIntoTextGrid checks that the rows land in the
// console's view as they are, in their colours.
func TestTerminalRendersIntoTextGrid(t *testing.T) {
	newTestApp(t)
	term := NewTerminal(20, 3, 10, nil)
	defer term.Close()
	term.Write([]byte("\x1b[32mok\x1b[0m done"))
	v := newTermView(nil, nil)
	v.setSize(20, 3)
	v.show(term.Window(0, 3))
	if got := strings.TrimRight(strings.Split(v.Text(), "\n")[0], " "); got != "ok done" {
		t.Errorf("row 0 = %q, want %q", got, "ok done")
	}
	// The "o" is painted green: some pixel of its cell is.
	f := v.face()
	green := false
	for y := 0; y < f.h; y++ {
		for x := 0; x < f.w; x++ {
			if c := v.pix.RGBAAt(x, y); c.G > 0x90 && c.R < 0xb0 && c.G > c.R+0x20 {
				green = true
			}
		}
	}
	if !green {
		t.Error("the first cell's green glyph was not painted")
	}
}

// TestTerminalWindow: a frame converts the visible lines only, follows the
// newest output at offset 0, and reaches back into the scrollback, which
// stays bounded however much is printed.
func TestTerminalWindow(t *testing.T) {
	term := NewTerminal(20, 3, 50, nil)
	defer term.Close()
	for i := range 1000 {
		fmt.Fprintf(term, "line %d\r\n", i)
	}
	term.Write([]byte("last"))
	rows, total := term.Window(0, 3)
	if len(rows) != 3 || total != 53 {
		t.Fatalf("window has %d rows of %d lines, want 3 of 53 (50 scrollback + 3 screen)", len(rows), total)
	}
	text := RowsText(rows)
	if !strings.Contains(text, "line 999") || !strings.HasPrefix(strings.Split(text, "\n")[2], "last") {
		t.Fatalf("window at offset 0:\n%s", text)
	}
	rows, _ = term.Window(50, 3)
	if got := strings.Split(RowsText(rows), "\n")[0]; got != "line 948" {
		t.Fatalf("oldest kept line %q, want line 948", got)
	}
	// An offset past the oldest line stops there.
	if rows, _ := term.Window(500, 3); strings.Split(RowsText(rows), "\n")[0] != "line 948" {
		t.Fatal("an offset past the scrollback did not stop at its oldest line")
	}
}

// TestTerminalHistory: the scrollback lives in the terminal's own ring of
// rendered rows, not in the emulator (which keeps 112 bytes a cell and
// held 14 MB for a console's 2,000 lines), whatever the Writes' sizes;
// the lines come out in order, styles kept, and ESC [ 3 J empties them.
func TestTerminalHistory(t *testing.T) {
	term := NewTerminal(20, 3, 50, nil)
	defer term.Close()
	var all strings.Builder
	for i := range 300 {
		fmt.Fprintf(&all, "\x1b[31mred\x1b[0m %d\r\n", i)
	}
	b := []byte(all.String())
	for len(b) > 0 { // Writes of odd sizes, escapes split across them
		n := min(len(b), 37)
		term.Write(b[:n])
		b = b[n:]
	}
	term.mu.Lock()
	held := term.emu.ScrollbackLen()
	term.mu.Unlock()
	if held != 0 {
		t.Errorf("the emulator holds %d scrollback lines; they belong in the terminal's history", held)
	}
	rows, total := term.Window(52, 50)
	if total != 53 {
		t.Fatalf("%d lines in all, want 53 (50 scrollback + 3 screen)", total)
	}
	for i, r := range rows {
		want := fmt.Sprintf("red %d", 248+i)
		if got := strings.Split(RowsText([]widget.TextGridRow{r}), "\n")[0]; got != want {
			t.Fatalf("scrollback line %d is %q, want %q", i, got, want)
		}
		if c := r.Cells[0].Style; c == nil || hex(c.TextColor()) != hex(palette[1]) {
			t.Fatalf("scrollback line %d lost its red", i)
		}
	}
	term.Write([]byte("more\r\n\x1b[3J"))
	if _, total := term.Window(0, 3); total > 3 {
		t.Fatalf("%d lines after ESC [ 3 J, want the screen's 3 at most", total)
	}
}

// TestTerminalHistoryIsCompact: a console's 2,000 lines of history, each
// an agent's coloured log line, take under 1 MB of heap (as TextGrid cells,
// 24 bytes each, they took 2.9 MB, which the collector's goal multiplies
// into the dashboard's RSS), and they read back whole with their styles.
func TestTerminalHistoryIsCompact(t *testing.T) {
	term := NewTerminal(110, 40, scrollbackLines, nil)
	defer term.Close()
	line := func(n int) string {
		return fmt.Sprintf("\x1b[1;34mReading\x1b[0m internal/pkg%d/file_%d.go \x1b[33m%d lines\x1b[0m \x1b[2m(%d ms)\x1b[0m", n%13, n, n%400, n%97)
	}
	heap := func() uint64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	var out strings.Builder
	for n := range 3 * scrollbackLines {
		out.WriteString(line(n) + "\r\n")
		if out.Len() > 32<<10 {
			term.Write([]byte(out.String()))
			out.Reset()
		}
	}
	term.Write([]byte(out.String()))
	held := int64(heap()) - int64(before)
	runtime.KeepAlive(term)
	t.Logf("%d lines of history: %.2f MB of heap", scrollbackLines, float64(held)/(1<<20))
	if held > 1<<20 {
		t.Errorf("%d lines of history hold %.1f MB of heap, want under 1 MB", scrollbackLines, float64(held)/(1<<20))
	}
	// The screen holds the last 39 lines and the cursor's empty one; the
	// history the 2,000 before them.
	rows, _ := term.Window(1<<20, 2)
	for i, r := range rows {
		n := 3*scrollbackLines - 39 - scrollbackLines + i
		want := fmt.Sprintf("Reading internal/pkg%d/file_%d.go %d lines (%d ms)", n%13, n, n%400, n%97)
		if got := strings.Split(RowsText([]widget.TextGridRow{r}), "\n")[0]; got != want {
			t.Fatalf("history line %d is %q, want %q", i, got, want)
		}
		if st := r.Cells[0].Style; st == nil || !st.Style().Bold || hex(st.TextColor()) != hex(palette[4]) {
			t.Errorf("history line %d lost its bold blue", i)
		}
		if st := r.Cells[len(r.Cells)-1].Style; st == nil || hex(st.TextColor()) != hex(mix(defaultFg, defaultBg)) {
			t.Errorf("history line %d lost its dim end", i)
		}
	}
}

// TestConsolePalette: ANSI blue and red read on the console's background
// (a contrast ratio of at least 4.5, WCAG's for text), dim text is dimmer
// than plain, and bold and italic reach the grid.
func TestConsolePalette(t *testing.T) {
	for _, i := range []int{1, 4, 2, 3, 5, 6, 7} {
		if r := contrast(palette[i], defaultBg); r < 4.5 {
			t.Errorf("ANSI colour %d %s has contrast %.1f on the background", i, hex(palette[i]), r)
		}
	}
	term := NewTerminal(40, 2, 10, nil)
	defer term.Close()
	term.Write([]byte("\x1b[2mdim\x1b[0m \x1b[1mbold\x1b[0m \x1b[3mital\x1b[0m"))
	rows, _ := term.Window(0, 2)
	text := RowsText(rows)
	for _, want := range []string{"@0:0-3 fg=" + hex(mix(defaultFg, defaultBg)), "@0:4-8 bold", "@0:9-13 italic"} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in:\n%s", want, text)
		}
	}
}

func contrast(a, b color.RGBA) float64 {
	lum := func(c color.RGBA) float64 {
		ch := func(v uint8) float64 {
			x := float64(v) / 255
			if x <= 0.03928 {
				return x / 12.92
			}
			return math.Pow((x+0.055)/1.055, 2.4)
		}
		return 0.2126*ch(c.R) + 0.7152*ch(c.G) + 0.0722*ch(c.B)
	}
	la, lb := lum(a), lum(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// TestTerminalAnswersQueries: the emulator's reply to a device-attributes
// query reaches the reply hook (it would be typed into the session).
func TestTerminalAnswersQueries(t *testing.T) {
	got := make(chan []byte, 1)
	term := NewTerminal(20, 3, 10, func(p []byte) { got <- p })
	defer term.Close()
	term.Write([]byte("\x1b[c"))
	if r := <-got; len(r) == 0 || r[0] != 0x1b {
		t.Errorf("reply = %q, want an escape sequence", r)
	}
}
