package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// trayResource marks a template icon as themed: Fyne hands a
// *theme.ThemedResource to the macOS menu bar as a template image.
func trayResource(res fyne.Resource, template bool) fyne.Resource {
	if !template {
		return res
	}
	return theme.NewThemedResource(res)
}
