package app

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"strconv"

	"fyne.io/fyne/v2"
	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// Colours of the badge levels, also used by the cards' state badges.
var levelColors = map[Level]color.NRGBA{
	LevelNone:      {0x8a, 0x94, 0x9e, 0xff},
	LevelWorking:   {0x2e, 0xa0, 0x43, 0xff},
	LevelReviewing: {0x2f, 0x6f, 0xd6, 0xff},
	LevelAttention: {0xe3, 0x9b, 0x12, 0xff},
	LevelBlocked:   {0xd7, 0x3a, 0x31, 0xff},
	LevelOffline:   {0x8a, 0x94, 0x9e, 0xff},
}

// LevelColor is a level's colour.
func LevelColor(l Level) color.Color { return levelColors[l] }

// badgeSize is the tray icon's size in pixels: large enough for a HiDPI
// menu bar, small enough to encode in a millisecond.
const badgeSize = 64

// BadgeIcon draws the tray icon for b over base (a PNG): a dot in the
// level's colour in the bottom-right corner, with the count in it. With
// template set it draws the monochrome variant for the macOS menu bar:
// black on transparent, the dot cut out of the base and the count cut out
// of the dot, so the OS can tint it.
func BadgeIcon(base []byte, b Badge, template bool) (fyne.Resource, error) {
	src, _, err := image.Decode(bytes.NewReader(base))
	if err != nil {
		return nil, fmt.Errorf("decode the tray icon: %w", err)
	}
	img := image.NewNRGBA(image.Rect(0, 0, badgeSize, badgeSize))
	xdraw.CatmullRom.Scale(img, img.Bounds(), src, src.Bounds(), draw.Over, nil)
	if b.Level == LevelNone && !template {
		return encodeIcon(img, b, template)
	}
	// The dot: a ring of transparency around it keeps it apart from the
	// icon at 16 px.
	const r = 15.0
	cx, cy := float64(badgeSize)-r-1, float64(badgeSize)-r-1
	fill := levelColors[b.Level]
	if template {
		fill = color.NRGBA{0, 0, 0, 0xff}
	}
	disc(img, cx, cy, r+3, color.NRGBA{}, true)
	if b.Level == LevelNone && template {
		return encodeIcon(img, b, template)
	}
	disc(img, cx, cy, r, fill, false)
	label := ""
	switch {
	case b.Level == LevelOffline:
		label = "×"
	case b.Count > 99:
		label = "99"
	case b.Count > 0:
		label = strconv.Itoa(b.Count)
	}
	if label != "" {
		ink := color.NRGBA{0xff, 0xff, 0xff, 0xff}
		if template {
			ink = color.NRGBA{} // cut out
		}
		drawLabel(img, label, int(cx), int(cy), ink)
	}
	return encodeIcon(img, b, template)
}

func encodeIcon(img image.Image, b Badge, template bool) (fyne.Resource, error) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("encode the tray icon: %w", err)
	}
	name := fmt.Sprintf("tray-%s-%d.png", b.Level, b.Count)
	if template {
		name = "template-" + name
	}
	return fyne.NewStaticResource(name, buf.Bytes()), nil
}

// disc paints a filled circle, antialiased by 4x4 supersampling; with
// clear it erases instead (alpha towards 0).
func disc(img *image.NRGBA, cx, cy, r float64, c color.NRGBA, clear bool) {
	const ss = 4
	for y := int(cy - r - 1); y <= int(cy+r+1); y++ {
		for x := int(cx - r - 1); x <= int(cx+r+1); x++ {
			if !(image.Point{x, y}.In(img.Rect)) {
				continue
			}
			in := 0
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					dx := float64(x) + (float64(sx)+0.5)/ss - cx
					dy := float64(y) + (float64(sy)+0.5)/ss - cy
					if dx*dx+dy*dy <= r*r {
						in++
					}
				}
			}
			if in == 0 {
				continue
			}
			cov := float64(in) / (ss * ss)
			old := img.NRGBAAt(x, y)
			if clear {
				old.A = uint8(float64(old.A) * (1 - cov))
				img.SetNRGBA(x, y, old)
				continue
			}
			img.SetNRGBA(x, y, blend(old, c, cov))
		}
	}
}

// blend lays c with coverage cov over old.
func blend(old, c color.NRGBA, cov float64) color.NRGBA {
	a := cov * float64(c.A) / 255
	oa := float64(old.A) / 255 * (1 - a)
	outA := a + oa
	if outA == 0 {
		return color.NRGBA{}
	}
	mix := func(n, o uint8) uint8 { return uint8((float64(n)*a + float64(o)*oa) / outA) }
	return color.NRGBA{mix(c.R, old.R), mix(c.G, old.G), mix(c.B, old.B), uint8(outA * 255)}
}

// drawLabel draws s centred on (cx, cy): the 7x13 bitmap font scaled up
// two times, so no font file is needed.
func drawLabel(img *image.NRGBA, s string, cx, cy int, ink color.NRGBA) {
	face := basicfont.Face7x13
	if s == "×" {
		s = "x"
	}
	w := font.MeasureString(face, s).Ceil()
	small := image.NewAlpha(image.Rect(0, 0, w, 13))
	d := font.Drawer{Dst: small, Src: image.Opaque, Face: face, Dot: fixed.P(0, 10)}
	d.DrawString(s)
	tw, th := w*2, 13*2
	if len(s) > 1 {
		tw = 26 // two digits at 2x overflow the dot: squeeze them
	}
	big := image.NewAlpha(image.Rect(0, 0, tw, th))
	xdraw.NearestNeighbor.Scale(big, big.Bounds(), small, small.Bounds(), draw.Src, nil)
	ox, oy := cx-tw/2, cy-th/2+2
	for y := 0; y < th; y++ {
		for x := 0; x < tw; x++ {
			a := big.AlphaAt(x, y).A
			if a == 0 {
				continue
			}
			p := image.Point{ox + x, oy + y}
			if !p.In(img.Rect) {
				continue
			}
			if ink.A == 0 {
				old := img.NRGBAAt(p.X, p.Y)
				old.A = 0
				img.SetNRGBA(p.X, p.Y, old)
				continue
			}
			img.SetNRGBA(p.X, p.Y, ink)
		}
	}
}
