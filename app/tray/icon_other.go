//go:build !windows

package tray

// osIcon: the StatusNotifierItem and the macOS menu bar take the PNG.
func osIcon(png []byte) ([]byte, error) { return png, nil }
