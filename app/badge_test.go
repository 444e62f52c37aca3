package app

import (
	"bytes"
	"image"
	"image/png"
	"testing"

	xdraw "golang.org/x/image/draw"

	"github.com/buildstation/buildstation/assets"
)

func TestBadgeIconColours(t *testing.T) {
	for l := LevelNone; l <= LevelStopped; l++ {
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
			// A point inside every level's mark, off its glyph.
			c := color4(img, 33, 46)
			switch {
			case l == LevelNone:
				// No dot: the icon itself.
			case template:
				if c != [4]uint8{0, 0, 0, 0xff} && c[3] > 0 {
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

// Each level's mark has a shape of its own, legible at 16 px: the marks'
// alpha masks (colour left out) differ, in the colour icon and in the
// macOS template, where blocked and working are told apart by shape only.
func TestBadgeShapesAt16px(t *testing.T) {
	levels := []Level{LevelWorking, LevelReviewing, LevelAttention, LevelBlocked, LevelOffline, LevelStopped}
	for _, template := range []bool{false, true} {
		base := assets.Icon.Content()
		if template {
			base = assets.IconTemplate.Content()
		}
		masks := map[Level][]int{}
		for _, l := range levels {
			res, err := BadgeIcon(base, Badge{Level: l}, template)
			if err != nil {
				t.Fatal(err)
			}
			img, _ := png.Decode(bytes.NewReader(res.Content()))
			small := image.NewNRGBA(image.Rect(0, 0, 16, 16))
			xdraw.CatmullRom.Scale(small, small.Bounds(), img, img.Bounds(), xdraw.Src, nil)
			var m []int
			for y := 7; y < 16; y++ {
				for x := 7; x < 16; x++ {
					c := small.NRGBAAt(x, y)
					// What a person sees without colour: coverage and
					// lightness.
					lum := (int(c.R)*3 + int(c.G)*6 + int(c.B)) / 10
					m = append(m, int(c.A), lum*int(c.A)/255)
				}
			}
			masks[l] = m
		}
		for i, a := range levels {
			for _, b := range levels[i+1:] {
				d := 0
				for k := range masks[a] {
					d += abs(masks[a][k] - masks[b][k])
				}
				// At least the equivalent of four pixels fully different.
				if d < 4*255 {
					t.Errorf("template=%v: %s and %s look alike at 16 px without colour (difference %d)", template, a, b, d)
				}
			}
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
