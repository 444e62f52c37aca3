package wiring

import (
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/lmittmann/tint"
	"golang.org/x/term"
)

// terminalHandler is the station log's handler for the terminal it runs
// in: a person reads a terminal, so it gets short times and colour
// (tint); a pipe or a file (a service's journal, a test) gets logfmt,
// which is what scripts and the station.log file read.
func terminalHandler(w io.Writer, tty bool, level slog.Leveler) slog.Handler {
	if tty {
		return tint.NewTextHandler(w, &tint.Options{Level: level, TimeFormat: time.TimeOnly})
	}
	return slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})
}

// isTerminal reports whether f is a terminal.
func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }
