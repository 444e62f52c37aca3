package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// termView shows a Terminal's rows in a TextGrid and turns keys into the
// bytes a terminal sends. It takes focus so every key, Ctrl-C included,
// goes to the session.
type termView struct {
	widget.BaseWidget
	grid     *widget.TextGrid
	input    func([]byte)         // typed bytes, for the session
	onResize func(cols, rows int) // the grid's size in cells changed
	cols     int
	rows     int
}

func newTermView(input func([]byte), onResize func(cols, rows int)) *termView {
	v := &termView{grid: widget.NewTextGrid(), input: input, onResize: onResize}
	v.ExtendBaseWidget(v)
	return v
}

func (v *termView) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(v.grid)
}

// cellSize is one monospace cell at the theme's text size.
func (v *termView) cellSize() fyne.Size {
	th := v.Theme()
	s := fyne.MeasureText("M", th.Size(theme.SizeNameText), fyne.TextStyle{Monospace: true})
	return fyne.NewSize(float32(int(s.Width+0.5)), float32(int(s.Height+0.5)))
}

// Resize keeps the session's terminal the size of the window.
func (v *termView) Resize(size fyne.Size) {
	v.BaseWidget.Resize(size)
	cs := v.cellSize()
	if cs.Width <= 0 || cs.Height <= 0 {
		return
	}
	// Leave room for the scroll bar.
	cols := max(int((size.Width-theme.ScrollBarSize())/cs.Width), 20)
	rows := max(int(size.Height/cs.Height), 5)
	if cols != v.cols || rows != v.rows {
		v.cols, v.rows = cols, rows
		if v.onResize != nil {
			v.onResize(cols, rows)
		}
	}
}

// show replaces the grid's rows and keeps the newest line in view.
func (v *termView) show(rows []widget.TextGridRow) {
	v.grid.Rows = rows
	v.grid.Refresh()
	v.scrollToBottom()
}

// scrollToBottom follows the newest line. TextGrid makes its scroller with
// its renderer, on the first paint; before that ScrollToBottom would
// dereference nil, and there is nothing to scroll yet anyway.
func (v *termView) scrollToBottom() {
	defer func() { _ = recover() }()
	v.grid.ScrollToBottom()
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
)
