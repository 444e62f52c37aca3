//go:build windows

package tray

import (
	"bytes"
	"image"
	_ "image/png"

	"github.com/fyne-io/image/ico"
)

// osIcon turns the tray's PNG into what the notification area loads: an
// .ico (as Fyne did for its own tray).
func osIcon(png []byte) ([]byte, error) {
	img, _, err := image.Decode(bytes.NewReader(png))
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := ico.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
