package assets

import (
	_ "embed"

	"fyne.io/fyne/v2"
)

// What `fyne bundle` would write; written by hand because the fyne CLI is not
// always at hand, with the PNGs embedded rather than inlined as bytes.

//go:embed icon.png
var iconPNG []byte

//go:embed icon-template.png
var iconTemplatePNG []byte

// Icon is the app icon: windows, the tray's base image, notifications.
var Icon = fyne.NewStaticResource("icon.png", iconPNG)

// IconTemplate is the monochrome icon for the macOS menu bar, which tints
// a template image to suit a light or dark bar.
var IconTemplate = fyne.NewStaticResource("icon-template.png", iconTemplatePNG)
