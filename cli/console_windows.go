//go:build windows

package cli

import (
	"io"
	"os"

	"golang.org/x/sys/windows"
)

// enableVT turns on VT sequence processing for a console on w, because a
// session's output (ConPTY) is full of them and a legacy console would
// print them as text. It returns a func that puts the old mode back.
func enableVT(w io.Writer) func() {
	f, ok := w.(*os.File)
	if !ok {
		return func() {}
	}
	h := windows.Handle(f.Fd())
	var mode uint32
	if windows.GetConsoleMode(h, &mode) != nil {
		return func() {}
	}
	if windows.SetConsoleMode(h, mode|windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING) != nil {
		return func() {}
	}
	return func() { _ = windows.SetConsoleMode(h, mode) }
}
