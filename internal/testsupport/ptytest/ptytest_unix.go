//go:build unix

package ptytest

import (
	"os"
	"testing"

	"github.com/creack/pty"
)

// Open opens a terminal, both ends closed at the test's cleanup, sized
// cols x rows unless both are 0 (then it keeps the size the kernel gives
// a new one). Where the machine has no pseudo-terminals the test skips.
func Open(t *testing.T, cols, rows uint16) (ptmx, tty *os.File) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	t.Cleanup(func() {
		tty.Close()
		ptmx.Close()
	})
	if cols != 0 || rows != 0 {
		if err := pty.Setsize(ptmx, &pty.Winsize{Cols: cols, Rows: rows}); err != nil {
			t.Fatal(err)
		}
	}
	return ptmx, tty
}
