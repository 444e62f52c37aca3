package app

import (
	"bytes"
	"image"
	"image/png"
	"testing"

	"github.com/buildstation/buildstation/assets"
)

func TestBadgeIconColours(t *testing.T) {
	for l := LevelNone; l <= LevelOffline; l++ {
		for _, template := range []bool{false, true} {
			base := assets.Icon.Content()
			if template {
				base = assets.IconTemplate.Content()
			}
			res, err := BadgeIcon(base, Badge{Level: l, Count: 7}, template)
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(res.Content()))
			if err != nil {
				t.Fatalf("%s: not a PNG: %v", l, err)
			}
			if img.Bounds() != image.Rect(0, 0, badgeSize, badgeSize) {
				t.Fatalf("%s: size %v", l, img.Bounds())
			}
			// A point inside the dot, off the digit.
			c := color4(img, badgeSize-7, badgeSize-16)
			switch {
			case l == LevelNone:
				// No dot: the icon itself.
			case template:
				if c != [4]uint8{0, 0, 0, 0xff} {
					t.Errorf("template %s: dot pixel %v, want opaque black", l, c)
				}
			default:
				w := levelColors[l]
				if c != [4]uint8{w.R, w.G, w.B, w.A} {
					t.Errorf("%s: dot pixel %v, want %v", l, c, w)
				}
			}
		}
	}
}

func color4(img image.Image, x, y int) [4]uint8 {
	r, g, b, a := img.At(x, y).RGBA()
	if a == 0 {
		return [4]uint8{}
	}
	// un-premultiply
	return [4]uint8{uint8(r * 0xffff / a >> 8), uint8(g * 0xffff / a >> 8), uint8(b * 0xffff / a >> 8), uint8(a >> 8)}
}
