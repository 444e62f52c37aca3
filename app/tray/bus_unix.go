//go:build !windows && !darwin

package tray

import (
	"log/slog"

	"github.com/godbus/dbus/v5"
)

// traySupported reports whether this desktop can show a tray item: on
// Linux and the BSDs the item lives on the D-Bus session bus. Without one
// the dashboard and notices still work, and Fyne's tray, which would crash
// on quit with no bus, is left off.
func traySupported(log *slog.Logger) bool {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		log.Warn("no D-Bus session bus: no tray icon; the dashboard and consoles still work", "err", err)
		return false
	}
	conn.Close()
	return true
}
