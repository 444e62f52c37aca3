//go:build !cgo

package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
)

// hasTray: this build has no tray (service install writes no login item).
const hasTray = false

// runTray is the tray role. The tray needs cgo (Fyne); this build has
// none, so say what works.
func runTray(ctx context.Context, home, verb string, args []string) int {
	fmt.Fprintln(os.Stderr, "buildstation: this build has no tray (built without cgo); run the station with \"buildstation daemon\" and use the CLI (\"buildstation help\")")
	return 2
}

func runDemoTray(ctx context.Context, home string, log *slog.Logger) int {
	fmt.Fprintln(os.Stderr, "buildstation: this build has no tray (built without cgo); run \"buildstation demo --headless\"")
	return 2
}
