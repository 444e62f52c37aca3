//go:build ignore

// gen_icon draws the app icon and its monochrome template twin:
// `go generate ./assets` rewrites icon.png and icon-template.png.
package main

import (
	"image"
	"image/color"
	"image/png"
	"log"
	"math"
	"os"
)

const size = 256

// inside reports whether (x, y), in 0..1 units, is ink of the glyph: a
// prompt chevron ">" and an underscore, the console the station watches.
func glyph(x, y float64) bool {
	// chevron: two thick segments (0.26,0.30)→(0.50,0.50)→(0.26,0.70)
	if segDist(x, y, 0.27, 0.30, 0.50, 0.50) < 0.065 || segDist(x, y, 0.50, 0.50, 0.27, 0.70) < 0.065 {
		return true
	}
	// underscore
	return x > 0.54 && x < 0.78 && y > 0.63 && y < 0.73
}

// tile reports whether (x, y) is on the rounded-square background.
func tile(x, y float64) bool {
	const r, m = 0.2, 0.04
	cx := math.Max(math.Max(m+r-x, x-(1-m-r)), 0)
	cy := math.Max(math.Max(m+r-y, y-(1-m-r)), 0)
	return x >= m && x <= 1-m && y >= m && y <= 1-m && cx*cx+cy*cy <= r*r
}

func segDist(px, py, ax, ay, bx, by float64) float64 {
	dx, dy := bx-ax, by-ay
	t := ((px-ax)*dx + (py-ay)*dy) / (dx*dx + dy*dy)
	t = math.Max(0, math.Min(1, t))
	ex, ey := ax+t*dx-px, ay+t*dy-py
	return math.Hypot(ex, ey)
}

// render supersamples 4x4 per pixel for smooth edges.
func render(paint func(x, y float64) color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	const ss = 4
	for py := 0; py < size; py++ {
		for px := 0; px < size; px++ {
			var r, g, b, a float64
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					c := paint((float64(px)+(float64(sx)+0.5)/ss)/size, (float64(py)+(float64(sy)+0.5)/ss)/size)
					fa := float64(c.A) / 255
					r, g, b, a = r+float64(c.R)*fa, g+float64(c.G)*fa, b+float64(c.B)*fa, a+fa
				}
			}
			if a == 0 {
				continue
			}
			img.SetNRGBA(px, py, color.NRGBA{uint8(r / a), uint8(g / a), uint8(b / a), uint8(a / (ss * ss) * 255)})
		}
	}
	return img
}

func save(name string, img image.Image) {
	f, err := os.Create(name)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		log.Fatal(err)
	}
}

func main() {
	bg := color.NRGBA{0x24, 0x31, 0x42, 0xff}
	top := color.NRGBA{0x33, 0x47, 0x5e, 0xff}
	ink := color.NRGBA{0xf2, 0xf5, 0xf8, 0xff}
	save("icon.png", render(func(x, y float64) color.NRGBA {
		switch {
		case !tile(x, y):
			return color.NRGBA{}
		case glyph(x, y):
			return ink
		case y < 0.5:
			return top
		}
		return bg
	}))
	// The template is ink only: macOS tints it for a light or dark menu bar.
	save("icon-template.png", render(func(x, y float64) color.NRGBA {
		if tile(x, y) && !glyph(x, y) {
			return color.NRGBA{0, 0, 0, 0xff}
		}
		return color.NRGBA{}
	}))
}
