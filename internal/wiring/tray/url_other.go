//go:build cgo && !darwin

package tray

// installURLHandler: off macOS links arrive as arguments
// (`buildstation open URL`, from the link handler the installer writes).
func installURLHandler() {}
