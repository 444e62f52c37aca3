package app

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
// console's TextGrid as they are.
func TestTerminalRendersIntoTextGrid(t *testing.T) {
	newTestApp(t)
	term := NewTerminal(20, 3, 10, nil)
	defer term.Close()
	term.Write([]byte("\x1b[32mok\x1b[0m done"))
	v := newTermView(nil, nil)
	v.show(term.Rows())
	if got := strings.TrimRight(v.grid.RowText(0), " "); got != "ok done" {
		t.Errorf("row 0 = %q, want %q", got, "ok done")
	}
	if st := v.grid.Rows[0].Cells[0].Style; st == nil || hex(st.TextColor()) == "" {
		t.Errorf("row 0 has no colour: %+v", st)
	}
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
