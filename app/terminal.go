package app

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"fyne.io/fyne/v2/widget"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
)

// Terminal is a VT emulator for one session's console and the rows it
// renders to: the scrollback, then the screen, with the cursor. Write may
// be called from the reader goroutine and Rows from Fyne's; a mutex keeps
// the emulator whole between them.
type Terminal struct {
	mu         sync.Mutex
	emu        *vt.Emulator
	scrollback int
	// history is the scrollback, kept here rather than in the emulator:
	// the emulator keeps a line as uv.Cells of 112 bytes each and shifts
	// its whole slice for every line it pushes, so 2,000 lines of an
	// agent's output held 14 MB and a session printing 1 MB/s kept the
	// GC's goal (and the process's RSS) 100 MB above the idle dashboard's.
	// Here a line is its text and its styled runs (histLine, trailing
	// blanks trimmed) in a ring: the emulator's scrollback is moved here
	// and emptied after each Write, so it never holds more than one
	// Write's lines.
	history ring
	scratch []widget.TextGridCell // drainScrollback's row as it converts one
	styles  map[styleKey]*widget.CustomTextGridStyle
	// reply gets what the emulator answers to the program's queries
	// (cursor position, device attributes): bytes for the session's input.
	reply func([]byte)
	done  chan struct{}
}

// NewTerminal makes a cols×rows terminal keeping scrollback lines of
// history. reply, when not nil, receives the terminal's answers to
// queries; they must be drained or the emulator would stall, so they are
// read on a goroutine of the terminal's own until Close.
func NewTerminal(cols, rows, scrollback int, reply func([]byte)) *Terminal {
	t := &Terminal{
		emu:        vt.NewEmulator(cols, rows),
		scrollback: scrollback,
		styles:     map[styleKey]*widget.CustomTextGridStyle{},
		reply:      reply,
		done:       make(chan struct{}),
	}
	t.emu.SetScrollbackSize(scrollback)
	go t.drain()
	return t
}

func (t *Terminal) drain() {
	defer close(t.done)
	buf := make([]byte, 1024)
	for {
		n, err := t.emu.Read(buf)
		if n > 0 && t.reply != nil {
			t.reply(append([]byte(nil), buf[:n]...))
		}
		if err != nil {
			return
		}
	}
}

// Close stops the terminal's reply goroutine. The emulator's Read checks
// its closed flag without a lock, so the pipe is closed first and the
// emulator only once the goroutine has gone.
func (t *Terminal) Close() {
	if pw, ok := t.emu.InputPipe().(*io.PipeWriter); ok {
		pw.CloseWithError(io.EOF)
	}
	<-t.done
	t.mu.Lock()
	t.emu.Close()
	t.mu.Unlock()
}

// ed3 is "erase the scrollback" (xterm's ESC [ 3 J).
var ed3 = []byte("\x1b[3J")

// Write feeds the session's output to the emulator and moves the lines it
// scrolled off into the history.
func (t *Terminal) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for len(p) > 0 {
		// The emulator empties its own scrollback on ESC [ 3 J; the
		// history must be emptied at that point of the output too, so
		// the output is fed up to each one in turn. (One split across
		// two Writes goes unseen: the history keeps its lines.)
		chunk, clearAfter := p, false
		if i := bytes.Index(p, ed3); i >= 0 {
			chunk, clearAfter = p[:i+len(ed3)], true
		}
		m, err := t.emu.Write(chunk)
		n += m
		t.drainScrollback()
		if clearAfter {
			t.history.reset()
		}
		if err != nil {
			return n, err
		}
		p = p[len(chunk):]
	}
	return n, nil
}

// drainScrollback moves the emulator's scrollback into the history.
func (t *Terminal) drainScrollback() {
	sb := t.emu.Scrollback()
	if sb == nil || sb.Len() == 0 {
		return
	}
	lines := sb.Lines()
	for _, l := range lines {
		row := widget.TextGridRow{Cells: t.scratch[:0]}
		for x := range l {
			row.Cells = append(row.Cells, t.cell(&l[x], false))
		}
		t.scratch = row.Cells[:0]
		t.history.push(compact(trimRow(row)), t.scrollback)
	}
	clear(lines) // Clear keeps the backing array: let the cells go
	sb.Clear()
}

// histLine is a line of the history: its cells' runes as text, and the
// runs of cells with a style. An agent's log line of 50 characters in a
// few colours is some 150 bytes, where its TextGrid cells (24 bytes each)
// are 1.2 KB: the rows are made again only for the lines a frame shows.
type histLine struct {
	text string
	runs []styleRun
}

// styleRun is cells [from, to) of a line drawn in st.
type styleRun struct {
	from, to int32
	st       widget.TextGridStyle
}

// compact makes r's histLine.
func compact(r widget.TextGridRow) histLine {
	var b strings.Builder
	b.Grow(len(r.Cells)) // one allocation for ASCII
	nruns := 0
	for i, c := range r.Cells {
		b.WriteRune(c.Rune)
		if c.Style != nil && (i == 0 || r.Cells[i-1].Style != c.Style) {
			nruns++
		}
	}
	l := histLine{text: b.String()}
	if nruns > 0 {
		l.runs = make([]styleRun, 0, nruns)
	}
	for i, c := range r.Cells {
		switch {
		case c.Style == nil:
		case i > 0 && r.Cells[i-1].Style == c.Style:
			l.runs[len(l.runs)-1].to++
		default:
			l.runs = append(l.runs, styleRun{from: int32(i), to: int32(i) + 1, st: c.Style})
		}
	}
	return l
}

// row makes the TextGrid row l was made from.
func (l histLine) row() widget.TextGridRow {
	cells := make([]widget.TextGridCell, 0, utf8.RuneCountInString(l.text))
	for _, r := range l.text {
		cells = append(cells, widget.TextGridCell{Rune: r})
	}
	for _, run := range l.runs {
		for i := run.from; i < run.to; i++ {
			cells[i].Style = run.st
		}
	}
	return widget.TextGridRow{Cells: cells}
}

// ring is the last lines of a terminal's scrollback, oldest first,
// without shifting them all for each line that comes in.
type ring struct {
	rows  []histLine
	start int // the oldest line, once the ring is full
}

func (r *ring) len() int { return len(r.rows) }

func (r *ring) at(i int) widget.TextGridRow { return r.rows[(r.start+i)%len(r.rows)].row() }

func (r *ring) push(row histLine, limit int) {
	if limit <= 0 {
		return
	}
	if len(r.rows) < limit {
		r.rows = append(r.rows, row)
		return
	}
	r.rows[r.start] = row
	r.start = (r.start + 1) % len(r.rows)
}

func (r *ring) reset() { r.rows, r.start = nil, 0 }

// Resize changes the screen size; the scrollback keeps its lines.
func (t *Terminal) Resize(cols, rows int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if cols == t.emu.Width() && rows == t.emu.Height() {
		return
	}
	t.emu.Resize(cols, rows)
	t.drainScrollback() // a shorter screen may push lines off its top
}

// Size is the screen's size in cells.
func (t *Terminal) Size() (cols, rows int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.emu.Width(), t.emu.Height()
}

// maxStyles bounds the style cache.
const maxStyles = 4096

// styleKey is what makes two cells look alike; one style object is shared
// by every cell with the same key.
type styleKey struct {
	fg, bg                  color.RGBA
	fgSet, bgSet            bool
	bold, italic, underline bool
}

// Rows renders the scrollback and the screen as TextGrid rows; trailing
// blank lines of the screen below the cursor are left out, so a short
// transcript does not end in a screenful of nothing.
func (t *Terminal) Rows() []widget.TextGridRow {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []widget.TextGridRow
	if !t.emu.IsAltScreen() {
		for y := 0; y < t.history.len(); y++ {
			out = append(out, t.history.at(y))
		}
	}
	cur := t.emu.CursorPosition()
	showCursor := !t.emu.CursorHidden()
	last := cur.Y
	w, h := t.emu.Width(), t.emu.Height()
	for y := h - 1; y > last; y-- {
		if !t.blankLine(y, w) {
			last = y
			break
		}
	}
	for y := 0; y <= last && y < h; y++ {
		row := widget.TextGridRow{Cells: make([]widget.TextGridCell, 0, w)}
		for x := 0; x < w; x++ {
			row.Cells = append(row.Cells, t.cell(t.emu.CellAt(x, y), showCursor && x == cur.X && y == cur.Y))
		}
		out = append(out, trimRow(row))
	}
	return out
}

// Window renders height lines ending offset lines above the newest one:
// the screen when offset is 0, older lines from the scrollback as it
// grows. Only these lines are converted, however long the scrollback, so a
// frame costs the same at the first line of output and the millionth.
// It also says how many lines there are in all, to bound the offset.
func (t *Terminal) Window(offset, height int) (rows []widget.TextGridRow, total int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	sb := 0
	if !t.emu.IsAltScreen() {
		sb = t.history.len()
	}
	w, h := t.emu.Width(), t.emu.Height()
	cur := t.emu.CursorPosition()
	// Blank lines below both the cursor and the last text are not
	// content: a transcript that printed three lines is three lines,
	// whatever the screen's height.
	used := cur.Y + 1
	for y := h - 1; y >= used; y-- {
		if !t.blankLine(y, w) {
			used = y + 1
			break
		}
	}
	used = min(used, h)
	total = sb + used
	if height <= 0 {
		height = h
	}
	offset = max(0, min(offset, total-height))
	end := total - offset // one past the last line shown
	start := max(0, end-height)
	showCursor := !t.emu.CursorHidden() && offset == 0
	rows = make([]widget.TextGridRow, 0, height)
	for y := start; y < end; y++ {
		if y < sb {
			rows = append(rows, t.history.at(y))
			continue
		}
		sy := y - sb
		row := widget.TextGridRow{Cells: make([]widget.TextGridCell, 0, w)}
		for x := 0; x < w; x++ {
			row.Cells = append(row.Cells, t.cell(t.emu.CellAt(x, sy), showCursor && x == cur.X && sy == cur.Y))
		}
		rows = append(rows, trimRow(row))
	}
	return rows, total
}

func (t *Terminal) blankLine(y, w int) bool {
	for x := 0; x < w; x++ {
		c := t.emu.CellAt(x, y)
		if c != nil && (strings.TrimSpace(c.Content) != "" || c.Style.Bg != nil || c.Style.Attrs&uv.AttrReverse != 0) {
			return false
		}
	}
	return true
}

// trimRow drops trailing plain blanks: fewer cells to draw.
func trimRow(r widget.TextGridRow) widget.TextGridRow {
	n := len(r.Cells)
	for n > 0 && r.Cells[n-1].Rune == ' ' && r.Cells[n-1].Style == nil {
		n--
	}
	r.Cells = r.Cells[:n]
	return r
}

// cell converts one emulator cell; cursor draws it reversed.
func (t *Terminal) cell(c *uv.Cell, cursor bool) widget.TextGridCell {
	r := ' '
	var st uv.Style
	if c != nil {
		st = c.Style
		if c.Content != "" {
			r, _ = utf8.DecodeRuneInString(c.Content)
		}
	}
	if cursor {
		st.Attrs ^= uv.AttrReverse
	}
	return widget.TextGridCell{Rune: r, Style: t.style(st)}
}

// style maps a VT style to a shared TextGrid style; nil for the default
// look, so the theme's colours apply (light or dark).
func (t *Terminal) style(s uv.Style) widget.TextGridStyle {
	var k styleKey
	if s.Fg != nil {
		k.fg, k.fgSet = toRGBA(s.Fg), true
	}
	if s.Bg != nil {
		k.bg, k.bgSet = toRGBA(s.Bg), true
	}
	if s.Attrs&uv.AttrFaint != 0 {
		// Dim: the colour halfway to the background.
		fg := defaultFg
		if k.fgSet {
			fg = k.fg
		}
		k.fg, k.fgSet = mix(fg, defaultBg), true
	}
	k.bold = s.Attrs&uv.AttrBold != 0
	k.italic = s.Attrs&uv.AttrItalic != 0
	k.underline = s.Underline != uv.UnderlineNone
	if s.Attrs&uv.AttrReverse != 0 {
		// Reverse video over the default colours needs real ones: the
		// theme's are not known here, so use the terminal convention.
		fg, bg := k.fg, k.bg
		if !k.fgSet {
			fg = defaultFg
		}
		if !k.bgSet {
			bg = defaultBg
		}
		k.fg, k.bg, k.fgSet, k.bgSet = bg, fg, true, true
	}
	if k == (styleKey{}) {
		return nil
	}
	if st, ok := t.styles[k]; ok {
		return st
	}
	if len(t.styles) >= maxStyles {
		// A program cycling through true colours: start the cache over
		// rather than grow it (rows drawn already keep their styles).
		clear(t.styles)
	}
	st := &widget.CustomTextGridStyle{}
	st.TextStyle.Bold, st.TextStyle.Italic, st.TextStyle.Underline = k.bold, k.italic, k.underline
	st.TextStyle.Monospace = true
	if k.fgSet {
		st.FGColor = k.fg
	}
	if k.bgSet {
		st.BGColor = k.bg
	}
	t.styles[k] = st
	return st
}

// The console's own colours: it is always dark, whatever the desktop's
// theme, so that agents' colours (chosen for a dark terminal) read.
var (
	defaultFg = color.RGBA{0xd4, 0xd4, 0xd4, 0xff}
	defaultBg = color.RGBA{0x1e, 0x1f, 0x22, 0xff}
)

// palette is the 16 ANSI colours, each readable on defaultBg (xterm's
// blue, #0000ee, and red, #cd0000, are not).
var palette = [16]color.RGBA{
	{0x6b, 0x72, 0x80, 0xff}, {0xf2, 0x6d, 0x78, 0xff}, {0x98, 0xc3, 0x79, 0xff}, {0xe5, 0xc0, 0x7b, 0xff},
	{0x61, 0xaf, 0xef, 0xff}, {0xc6, 0x78, 0xdd, 0xff}, {0x56, 0xb6, 0xc2, 0xff}, {0xd4, 0xd4, 0xd4, 0xff},
	{0x8b, 0x92, 0xa0, 0xff}, {0xff, 0x8b, 0x94, 0xff}, {0xb5, 0xe8, 0x90, 0xff}, {0xf5, 0xd6, 0x8f, 0xff},
	{0x8c, 0xc8, 0xff, 0xff}, {0xdd, 0xa0, 0xf0, 0xff}, {0x7f, 0xd6, 0xe0, 0xff}, {0xff, 0xff, 0xff, 0xff},
}

func mix(a, b color.RGBA) color.RGBA {
	return color.RGBA{uint8((int(a.R) + int(b.R)) / 2), uint8((int(a.G) + int(b.G)) / 2), uint8((int(a.B) + int(b.B)) / 2), 0xff}
}

func toRGBA(c color.Color) color.RGBA {
	switch c := c.(type) {
	case ansi.BasicColor:
		if int(c) < len(palette) {
			return palette[c]
		}
	case ansi.IndexedColor:
		if int(c) < len(palette) {
			return palette[c]
		}
	}
	r, g, b, a := c.RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
}

// RowsText dumps rows as text with their colours, for golden files: each
// row's text, then one line per run of styled cells.
func RowsText(rows []widget.TextGridRow) string {
	var b strings.Builder
	for i, r := range rows {
		var line strings.Builder
		for _, c := range r.Cells {
			line.WriteRune(c.Rune)
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
		for start := 0; start < len(r.Cells); {
			st := r.Cells[start].Style
			end := start + 1
			for end < len(r.Cells) && r.Cells[end].Style == st {
				end++
			}
			if st != nil {
				b.WriteString(describeStyle(i, start, end, st))
			}
			start = end
		}
	}
	return b.String()
}

func describeStyle(row, from, to int, st widget.TextGridStyle) string {
	var parts []string
	if c := st.TextColor(); c != nil {
		parts = append(parts, "fg="+hex(c))
	}
	if c := st.BackgroundColor(); c != nil {
		parts = append(parts, "bg="+hex(c))
	}
	ts := st.Style()
	if ts.Bold {
		parts = append(parts, "bold")
	}
	if ts.Italic {
		parts = append(parts, "italic")
	}
	if ts.Underline {
		parts = append(parts, "underline")
	}
	return fmt.Sprintf("  @%d:%d-%d %s\n", row, from, to, strings.Join(parts, " "))
}

func hex(c color.Color) string {
	r := toRGBA(c)
	return fmt.Sprintf("#%02x%02x%02x", r.R, r.G, r.B)
}

var _ io.Writer = (*Terminal)(nil)
