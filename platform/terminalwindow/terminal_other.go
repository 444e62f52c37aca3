//go:build !darwin

package terminalwindow

// Open has no OS terminal to script here; the tray's console view serves.
func Open(self, home, sessionID string) (ok bool, err error) { return false, nil }
