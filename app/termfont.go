package app

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// termFont paints terminal cells with the theme's monospace font: glyphs
// are rasterised once per rune and style and kept as masks.
type termFont struct {
	size   float32
	face   font.Face
	w, h   int // a cell in pixels
	ascent int
	glyphs map[glyphKey]*image.Alpha
}

type glyphKey struct {
	r            rune
	bold, italic bool
}

// maxGlyphs bounds the glyph cache (a program printing every CJK ideograph
// would otherwise grow it for ever).
const maxGlyphs = 4096

func newTermFont(size float32) *termFont {
	f := &termFont{size: size, glyphs: map[glyphKey]*image.Alpha{}}
	if otf, err := opentype.Parse(theme.TextMonospaceFont().Content()); err == nil {
		f.face, _ = opentype.NewFace(otf, &opentype.FaceOptions{Size: float64(size), DPI: 72, Hinting: font.HintingFull})
	}
	if f.face == nil {
		f.face = fallbackFace()
	}
	m := f.face.Metrics()
	adv, ok := f.face.GlyphAdvance('M')
	if !ok {
		adv = fixed.I(int(math.Ceil(float64(size) * 0.6)))
	}
	f.w = max(adv.Ceil(), 1)
	f.ascent = m.Ascent.Ceil()
	f.h = max(m.Ascent.Ceil()+m.Descent.Ceil(), 1)
	return f
}

// glyph is r's mask, one cell in size; bold is drawn twice a pixel apart,
// italic sheared.
func (f *termFont) glyph(k glyphKey) *image.Alpha {
	if g, ok := f.glyphs[k]; ok {
		return g
	}
	if len(f.glyphs) >= maxGlyphs {
		clear(f.glyphs)
	}
	g := image.NewAlpha(image.Rect(0, 0, f.w, f.h))
	d := font.Drawer{Dst: g, Src: image.Opaque, Face: f.face, Dot: fixed.P(0, f.ascent)}
	d.DrawString(string(k.r))
	if k.bold {
		d.Dot = fixed.P(1, f.ascent)
		d.DrawString(string(k.r))
	}
	if k.italic {
		sh := image.NewAlpha(g.Rect)
		for y := 0; y < f.h; y++ {
			dx := (f.ascent - y) / 4
			for x := 0; x < f.w; x++ {
				if sx := x - dx; sx >= 0 && sx < f.w {
					sh.SetAlpha(x, y, g.AlphaAt(sx, y))
				}
			}
		}
		g = sh
	}
	f.glyphs[k] = g
	return g
}

// paintRow paints row y of a cols-wide terminal into img.
func (f *termFont) paintRow(img *image.RGBA, y, cols int, r widget.TextGridRow) {
	top := y * f.h
	if top >= img.Rect.Dy() {
		return
	}
	line := image.Rect(0, top, cols*f.w, top+f.h)
	draw.Draw(img, line, image.NewUniform(defaultBg), image.Point{}, draw.Src)
	for x, c := range r.Cells {
		if x >= cols {
			break
		}
		cell := image.Rect(x*f.w, top, (x+1)*f.w, top+f.h)
		fg := color.Color(defaultFg)
		var k glyphKey
		k.r = c.Rune
		if st := c.Style; st != nil {
			if bg := st.BackgroundColor(); bg != nil {
				draw.Draw(img, cell, image.NewUniform(bg), image.Point{}, draw.Src)
			}
			if tc := st.TextColor(); tc != nil {
				fg = tc
			}
			ts := st.Style()
			k.bold, k.italic = ts.Bold, ts.Italic
			if ts.Underline {
				draw.Draw(img, image.Rect(cell.Min.X, cell.Max.Y-1, cell.Max.X, cell.Max.Y), image.NewUniform(fg), image.Point{}, draw.Over)
			}
		}
		if k.r == ' ' || k.r == 0 {
			continue
		}
		draw.DrawMask(img, cell, image.NewUniform(fg), image.Point{}, f.glyph(k), image.Point{}, draw.Over)
	}
}

// fallbackFace is a bitmap font for when the theme's cannot be read.
func fallbackFace() font.Face { return basicfont.Face7x13 }
