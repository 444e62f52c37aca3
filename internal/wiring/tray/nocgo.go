//go:build !cgo

package tray

import (
	"context"
	"fmt"
	"log/slog"
	"os"
)

// Available: this build has no tray (service install writes no login
// item).
const Available = false

const noTray = "buildstation: this build has no tray (built without cgo); "

// Run is the tray role. The tray needs cgo (systray, Fyne); this build has
// none, so say what works.
func Run(ctx context.Context, home, verb string, args []string, e Edges) int {
	fmt.Fprintln(os.Stderr, noTray+"run the station with \"buildstation daemon\" and use the CLI (\"buildstation help\")")
	return 2
}

// Demo is `buildstation demo` with the tray.
func Demo(ctx context.Context, home string, log *slog.Logger, e Edges) int {
	fmt.Fprintln(os.Stderr, noTray+"run \"buildstation demo --headless\"")
	return 2
}

// Dashboard is `buildstation dashboard`.
func Dashboard(ctx context.Context, home string, args []string, e Edges) int {
	fmt.Fprintln(os.Stderr, noTray+"the board is in the CLI (\"buildstation status\", \"buildstation help\")")
	return 2
}
