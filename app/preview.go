package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/buildstation/buildstation/assets"
)

// ShowTrayPreview opens a window with the tray's current icon and menu, as
// the OS tray would show them: for screenshots and for desktops without a
// tray (a bare X server). It follows the snapshot like the tray does.
func (u *UI) ShowTrayPreview() {
	w := u.app.NewWindow("Build Station — tray menu")
	icon := canvas.NewImageFromResource(nil)
	icon.FillMode = canvas.ImageFillContain
	icon.SetMinSize(fyne.NewSize(48, 48))
	menuBox := container.NewStack()
	var levels []fyne.CanvasObject
	for l := LevelNone; l <= LevelStopped; l++ {
		res, err := BadgeIcon(assets.Icon.Content(), Badge{Level: l, Count: int(l)}, false)
		if err != nil {
			continue
		}
		img := canvas.NewImageFromResource(res)
		img.FillMode = canvas.ImageFillContain
		img.SetMinSize(fyne.NewSize(32, 32))
		levels = append(levels, container.NewVBox(img, widget.NewLabelWithStyle(l.String(), fyne.TextAlignCenter, fyne.TextStyle{})))
	}
	refresh := func() {
		b := BadgeFor(u.snap)
		if res, err := BadgeIcon(assets.Icon.Content(), b, false); err == nil {
			icon.Resource = res
			icon.Refresh()
		}
		menuBox.Objects = []fyne.CanvasObject{widget.NewMenu(u.TrayMenu())}
		menuBox.Refresh()
	}
	refresh()
	u.previews = append(u.previews, refresh)
	w.SetContent(container.NewBorder(
		container.NewVBox(container.NewHBox(icon, widget.NewLabel("the tray icon now")),
			widget.NewLabel("Every badge:"), container.NewHBox(levels...), widget.NewSeparator()),
		nil, nil, nil, menuBox))
	w.Resize(fyne.NewSize(560, 620))
	w.Show()
}
