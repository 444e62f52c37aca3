package fakeagent

import (
	"io"
	"os"

	"golang.org/x/term"
)

// makeRaw puts a terminal stdin in raw mode and returns how to undo it. In
// the default cooked mode the terminal hands over a whole line at once, which
// would hide the Read boundaries read-submit judges; an agent TUI reads raw
// bytes too. Anything that is not a terminal is left alone.
func makeRaw(stdin io.Reader) (raw bool, restore func()) {
	f, ok := stdin.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return false, func() {}
	}
	old, err := term.MakeRaw(int(f.Fd()))
	if err != nil {
		// Cooked input still works for read; only read-submit gets stricter.
		return false, func() {}
	}
	return true, func() { term.Restore(int(f.Fd()), old) }
}
