// Package browser opens a web link in the person's browser: what the tray's
// "Update available" line does (the tray process runs no Fyne app, whose
// OpenURL would do it).
package browser
