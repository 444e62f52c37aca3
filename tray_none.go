package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
)

// runTray is the tray role. This build has no tray yet; say what works.
func runTray(ctx context.Context, home, verb string, args []string) int {
	fmt.Fprintln(os.Stderr, "buildstation: this build has no tray; run the station with \"buildstation daemon\" and use the CLI (\"buildstation help\")")
	return 2
}

func runDemoTray(ctx context.Context, home string, log *slog.Logger) int {
	fmt.Fprintln(os.Stderr, "buildstation: this build has no tray; run \"buildstation demo --headless\"")
	return 2
}
