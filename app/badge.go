package app

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"

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
	LevelStopped:   {0xd7, 0x3a, 0x31, 0xff},
}

// LevelColor is a level's colour.
func LevelColor(l Level) color.Color { return levelColors[l] }

// badgeSize is the tray icon's size in pixels: large enough for a HiDPI
// menu bar, small enough to encode in a millisecond.
const badgeSize = 64

// BadgeIcon draws the tray icon for b over base (a PNG): in the
// bottom-right corner, a mark whose shape says the level without its
// colour — a red octagon with "!" for blocked, an amber square with pause
// bars for a session waiting on a person, a blue diamond with "R" for
// reviewing, a green dot for working, a grey ring with "x" while the tray
// connects, a red disc with a white "x" for a station that stopped — each
// legible at 16 px. With template set it draws the monochrome
// variant for the macOS menu bar: black on transparent, the mark cut out
// of the base as an outline with its glyph inside (working alone is a
// solid dot), so the OS can tint it and the shapes still tell blocked from
// working.
func BadgeIcon(base []byte, b Badge, template bool) (fyne.Resource, error) {
	src, _, err := image.Decode(bytes.NewReader(base))
	if err != nil {
		return nil, fmt.Errorf("decode the tray icon: %w", err)
	}
	img := image.NewNRGBA(image.Rect(0, 0, badgeSize, badgeSize))
	xdraw.CatmullRom.Scale(img, img.Bounds(), src, src.Bounds(), draw.Over, nil)
	if b.Level == LevelNone {
		return encodeIcon(img, b, template)
	}
	const r = 17.0
	cx, cy := float64(badgeSize)-r-1, float64(badgeSize)-r-1
	inside := levelShapes[b.Level]
	fill := levelColors[b.Level]
	ink := color.NRGBA{0xff, 0xff, 0xff, 0xff}
	if template {
		fill, ink = color.NRGBA{0, 0, 0, 0xff}, color.NRGBA{0, 0, 0, 0xff}
	}
	// A ring of transparency keeps the mark apart from the icon at 16 px.
	paint(img, cx, cy, r+3, inside, color.NRGBA{}, true)
	if b.Level == LevelStopped {
		// A full red disc with a white cross: the station is gone, which
		// a person must see at 16 px (a ring reads as "starting").
		// Monochrome, the cross is cut out of the disc.
		paint(img, cx, cy, r, inside, fill, false)
		if template {
			ink = color.NRGBA{}
		}
		drawLabel(img, "x", int(cx), int(cy), ink)
		return encodeIcon(img, b, template)
	}
	if b.Level == LevelOffline {
		paint(img, cx, cy, r, inside, fill, false)
		paint(img, cx, cy, r-5, inside, color.NRGBA{}, true)
		drawLabel(img, "x", int(cx), int(cy), fill)
		return encodeIcon(img, b, template)
	}
	paint(img, cx, cy, r, inside, fill, false)
	if template && b.Level != LevelWorking {
		// Monochrome: an outline with the glyph inside, so that only
		// working is a solid dot.
		paint(img, cx, cy, r-3.5, inside, color.NRGBA{}, true)
	}
	switch b.Level {
	case LevelBlocked:
		drawLabel(img, "!", int(cx), int(cy), ink)
	case LevelReviewing:
		drawLabel(img, "R", int(cx), int(cy), ink)
	case LevelAttention:
		// Pause bars.
		for _, x := range []float64{cx - 6, cx + 2} {
			bar := func(dx, dy, _ float64) bool { return dx >= 0 && dx <= 4 && dy >= -8 && dy <= 8 }
			paintAt(img, x, cy, 10, bar, ink, false)
		}
	}
	return encodeIcon(img, b, template)
}

// shape reports whether (dx, dy), from the mark's centre, is inside a mark
// of radius r.
type shape func(dx, dy, r float64) bool

var levelShapes = map[Level]shape{
	LevelWorking:   func(dx, dy, r float64) bool { return dx*dx+dy*dy <= r*r*0.7 }, // a dot, smaller than the rest
	LevelReviewing: func(dx, dy, r float64) bool { return math.Abs(dx)+math.Abs(dy) <= r*1.15 },
	LevelAttention: func(dx, dy, r float64) bool {
		return math.Abs(dx) <= r*0.85 && math.Abs(dy) <= r*0.85
	},
	LevelBlocked: func(dx, dy, r float64) bool {
		return math.Abs(dx) <= r && math.Abs(dy) <= r && math.Abs(dx)+math.Abs(dy) <= r*1.42
	},
	LevelOffline: func(dx, dy, r float64) bool { return dx*dx+dy*dy <= r*r },
	LevelStopped: func(dx, dy, r float64) bool { return dx*dx+dy*dy <= r*r },
}

// paint fills the shape of radius r around (cx, cy), antialiased by 4x4
// supersampling; with clear it erases instead (alpha towards 0).
func paint(img *image.NRGBA, cx, cy, r float64, in shape, c color.NRGBA, clear bool) {
	paintAt(img, cx, cy, r, in, c, clear)
}

func paintAt(img *image.NRGBA, cx, cy, r float64, in shape, c color.NRGBA, clear bool) {
	const ss = 4
	for y := int(cy - r - 2); y <= int(cy+r+2); y++ {
		for x := int(cx - r - 2); x <= int(cx+r+2); x++ {
			if !(image.Point{x, y}.In(img.Rect)) {
				continue
			}
			n := 0
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					dx := float64(x) + (float64(sx)+0.5)/ss - cx
					dy := float64(y) + (float64(sy)+0.5)/ss - cy
					if in(dx, dy, r) {
						n++
					}
				}
			}
			if n == 0 {
				continue
			}
			cov := float64(n) / (ss * ss)
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
