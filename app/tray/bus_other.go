//go:build windows || darwin

package tray

import "log/slog"

// traySupported: Windows' notification area and the macOS menu bar are
// always there.
func traySupported(*slog.Logger) bool { return true }
