package app

import (
	"image"
	"image/draw"
	"strings"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// termView shows a window of a Terminal's lines as one image it paints
// itself, and turns keys into the bytes a terminal sends. A frame repaints
// only the rows that changed, and the window is a single texture for the
// GPU: a TextGrid would be three canvas objects per cell, 15,000 for a
// 120×40 console, and painting those at the rate an agent's TUI redraws
// stalls the whole app. The scrollback stays in the emulator and the wheel
// moves the window over it. It takes focus so every key, Ctrl-C included,
// goes to the session.
type termView struct {
	widget.BaseWidget
	img      *canvas.Image
	pix      *image.RGBA
	font     *termFont
	shown    []widget.TextGridRow // what each row shows now
	input    func([]byte)         // typed bytes, for the session
	onResize func(cols, rows int) // the view's size in cells changed
	onScroll func()               // the scroll offset changed: draw a frame
	cols     int
	// height and offset are read by the console's render goroutine:
	// the number of rows shown, and how many lines above the newest the
	// window ends (0 follows the output).
	height, offset atomic.Int64
	total          int // lines in the terminal at the last frame
}

func newTermView(input func([]byte), onResize func(cols, rows int)) *termView {
	v := &termView{input: input, onResize: onResize}
	v.img = canvas.NewImageFromImage(image.NewRGBA(image.Rect(0, 0, 1, 1)))
	v.img.FillMode = canvas.ImageFillStretch
	v.img.ScaleMode = canvas.ImageScalePixels
	v.ExtendBaseWidget(v)
	return v
}

func (v *termView) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(v.img)
}

// MinSize is small: the window decides the terminal's size, not the text.
func (v *termView) MinSize() fyne.Size {
	cs := v.cellSize()
	return fyne.NewSize(cs.Width*20, cs.Height*5)
}

// scale is the canvas's pixels per Fyne unit.
func (v *termView) scale() float32 {
	if c := fyne.CurrentApp().Driver().CanvasForObject(v); c != nil && c.Scale() > 0 {
		return c.Scale()
	}
	return 1
}

// face is the monospace font at the theme's text size for this canvas.
func (v *termView) face() *termFont {
	size := v.Theme().Size(theme.SizeNameText) * v.scale()
	if v.font == nil || v.font.size != size {
		v.font = newTermFont(size)
	}
	return v.font
}

// cellSize is one monospace cell, in Fyne units.
func (v *termView) cellSize() fyne.Size {
	f, sc := v.face(), v.scale()
	return fyne.NewSize(float32(f.w)/sc, float32(f.h)/sc)
}

// Resize keeps the session's terminal the size of the window.
func (v *termView) Resize(size fyne.Size) {
	v.BaseWidget.Resize(size)
	cs := v.cellSize()
	if cs.Width <= 0 || cs.Height <= 0 {
		return
	}
	cols := max(int(size.Width/cs.Width), 20)
	rows := max(int(size.Height/cs.Height), 5)
	if cols != v.cols || rows != int(v.height.Load()) {
		v.setSize(cols, rows)
		if v.onResize != nil {
			v.onResize(cols, rows)
		}
		if v.onScroll != nil {
			v.onScroll() // the view was cleared: draw it again
		}
	}
}

// setSize makes the image cols×rows cells; everything repaints.
func (v *termView) setSize(cols, rows int) {
	v.cols = cols
	v.height.Store(int64(rows))
	f := v.face()
	v.pix = image.NewRGBA(image.Rect(0, 0, cols*f.w, rows*f.h))
	draw.Draw(v.pix, v.pix.Bounds(), image.NewUniform(defaultBg), image.Point{}, draw.Src)
	v.shown = make([]widget.TextGridRow, rows)
	for i := range v.shown {
		v.shown[i].Cells = []widget.TextGridCell{{Rune: -1}} // matches nothing: paint it
	}
	v.img.Image = v.pix
	v.img.Refresh()
}

// show draws a frame: rows are the window's lines, oldest first, and
// total the terminal's line count. Unchanged rows are not repainted.
func (v *termView) show(rows []widget.TextGridRow, total int) {
	v.total = total
	if v.pix == nil {
		v.setSize(100, max(len(rows), 1))
	}
	f := v.face()
	// Top-align, as a terminal does: a screen shorter than the view
	// leaves blank rows below.
	changed := false
	for i := range v.shown {
		var r widget.TextGridRow
		if i < len(rows) {
			r = rows[i]
		}
		if sameRow(v.shown[i], r) {
			continue
		}
		v.shown[i] = r
		f.paintRow(v.pix, i, v.cols, r)
		changed = true
	}
	if changed {
		v.img.Refresh()
	}
}

// Text is what the view shows, a line per row: the cells that fit its
// width, as paintRow draws them.
func (v *termView) Text() string {
	var b strings.Builder
	for _, r := range v.shown {
		cells := r.Cells
		if v.cols > 0 && len(cells) > v.cols {
			cells = cells[:v.cols]
		}
		for _, c := range cells {
			b.WriteRune(c.Rune)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// sameRow compares two rows cell by cell; styles are shared by the
// Terminal, so comparing them by pointer is enough.
func sameRow(a, b widget.TextGridRow) bool {
	if len(a.Cells) != len(b.Cells) || a.Style != b.Style {
		return false
	}
	for i := range a.Cells {
		if a.Cells[i] != b.Cells[i] {
			return false
		}
	}
	return true
}

// Scrolled moves the window over the scrollback: up goes back in time,
// down to the newest output again.
func (v *termView) Scrolled(e *fyne.ScrollEvent) {
	cs := v.cellSize()
	if cs.Height <= 0 {
		return
	}
	lines := int(e.Scrolled.DY / cs.Height)
	if lines == 0 {
		if e.Scrolled.DY > 0 {
			lines = 1
		} else if e.Scrolled.DY < 0 {
			lines = -1
		}
	}
	limit := max(0, v.total-int(v.height.Load()))
	off := min(max(0, int(v.offset.Load())+lines), limit)
	if int64(off) != v.offset.Load() {
		v.offset.Store(int64(off))
		if v.onScroll != nil {
			v.onScroll()
		}
	}
}

func (v *termView) Tapped(*fyne.PointEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(v); c != nil {
		c.Focus(v)
	}
}

func (v *termView) FocusGained() {}
func (v *termView) FocusLost()   {}

func (v *termView) TypedRune(r rune) { v.send(string(r)) }

// keySeqs are what an xterm sends for keys that have no rune.
var keySeqs = map[fyne.KeyName]string{
	fyne.KeyReturn: "\r", fyne.KeyEnter: "\r", fyne.KeyBackspace: "\x7f", fyne.KeyTab: "\t",
	fyne.KeyEscape: "\x1b", fyne.KeyUp: "\x1b[A", fyne.KeyDown: "\x1b[B", fyne.KeyRight: "\x1b[C",
	fyne.KeyLeft: "\x1b[D", fyne.KeyHome: "\x1b[H", fyne.KeyEnd: "\x1b[F", fyne.KeyPageUp: "\x1b[5~",
	fyne.KeyPageDown: "\x1b[6~", fyne.KeyDelete: "\x1b[3~", fyne.KeyInsert: "\x1b[2~",
	fyne.KeyF1: "\x1bOP", fyne.KeyF2: "\x1bOQ", fyne.KeyF3: "\x1bOR", fyne.KeyF4: "\x1bOS",
}

func (v *termView) TypedKey(e *fyne.KeyEvent) {
	if s, ok := keySeqs[e.Name]; ok {
		v.send(s)
	}
}

// TypedShortcut turns Ctrl-letter into its control byte. Fyne reports
// Ctrl-C, -V, -X, -A, -Z and -Y as the standard shortcuts: in a terminal
// they are control bytes too, except paste, which types the clipboard.
func (v *termView) TypedShortcut(s fyne.Shortcut) {
	switch s := s.(type) {
	case *fyne.ShortcutPaste:
		if s.Clipboard != nil {
			v.send(s.Clipboard.Content())
		}
	case *fyne.ShortcutCopy:
		v.send("\x03")
	case *fyne.ShortcutCut:
		v.send("\x18")
	case *fyne.ShortcutSelectAll:
		v.send("\x01")
	case *fyne.ShortcutUndo:
		v.send("\x1a")
	case *fyne.ShortcutRedo:
		v.send("\x19")
	case *desktop.CustomShortcut:
		if s.Modifier&fyne.KeyModifierControl != 0 {
			if b, ok := ctrlByte(s.KeyName); ok {
				v.send(string([]byte{b}))
			}
		}
	}
}

// ctrlByte is the control byte for Ctrl and key: Ctrl-A is 0x01, … and
// Ctrl-[ is Escape.
func ctrlByte(k fyne.KeyName) (byte, bool) {
	if len(k) == 1 && k[0] >= 'A' && k[0] <= 'Z' {
		return k[0] & 0x1f, true
	}
	switch k {
	case fyne.KeyLeftBracket:
		return 0x1b, true
	case fyne.KeyBackslash:
		return 0x1c, true
	case fyne.KeyRightBracket:
		return 0x1d, true
	case fyne.KeySpace:
		return 0, true
	}
	return 0, false
}

func (v *termView) send(s string) {
	if v.input != nil && s != "" {
		v.input([]byte(s))
	}
}

var (
	_ fyne.Focusable    = (*termView)(nil)
	_ fyne.Shortcutable = (*termView)(nil)
	_ fyne.Tappable     = (*termView)(nil)
	_ fyne.Scrollable   = (*termView)(nil)
)

// wrapRows folds rows longer than cols into as many rows as they need,
// and keeps the last height of them: a read-only view narrower than the
// terminal that printed shows each long line whole, on several rows,
// instead of cutting it at its right edge.
func wrapRows(rows []widget.TextGridRow, cols, height int) []widget.TextGridRow {
	if cols <= 0 {
		return rows
	}
	out := make([]widget.TextGridRow, 0, len(rows))
	for _, r := range rows {
		cells := r.Cells
		for len(cells) > cols {
			out = append(out, widget.TextGridRow{Cells: cells[:cols:cols]})
			cells = cells[cols:]
		}
		out = append(out, widget.TextGridRow{Cells: cells, Style: r.Style})
	}
	if height > 0 && len(out) > height {
		out = out[len(out)-height:]
	}
	return out
}
