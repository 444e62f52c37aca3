package app

import (
	"log/slog"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// newTestApp makes Fyne's headless test app (no cgo, no display) current
// for one test.
func newTestApp(t *testing.T) fyne.App {
	t.Helper()
	a := test.NewTempApp(t)
	return a
}

func discardLog() *slog.Logger { return slog.New(slog.DiscardHandler) }
