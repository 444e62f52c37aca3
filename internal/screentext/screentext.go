package screentext

import (
	"io"
	"strings"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/vt"

	"github.com/buildstation/buildstation/internal/textsafe"
)

// piece is how much output the emulator takes at once; between two pieces
// the lines that scrolled off its screen are printed and dropped. A piece
// of n bytes scrolls at most n lines off (a line feed per byte, or a wrap
// per column count of bytes), so scrollback never fills between two drains
// and no line is lost.
const (
	piece      = 1 << 10
	scrollback = 2 * piece
)

// Renderer plays raw terminal output through a VT emulator as it arrives
// and writes the text a person would have read. Its memory is one screen
// and a bounded scrollback, whatever the output's length.
type Renderer struct {
	emu    *vt.Emulator
	w      io.Writer
	done   chan struct{}
	blanks int // empty lines held back: printed only if text follows
}

// New returns a Renderer of a cols × rows screen writing to w; Close it.
func New(w io.Writer, cols, rows int) *Renderer {
	r := &Renderer{emu: vt.NewEmulator(cols, rows), w: w, done: make(chan struct{})}
	r.emu.SetScrollbackSize(scrollback)
	// The emulator answers a program's queries (cursor position, device
	// attributes) into a pipe; nobody types them anywhere, but they must be
	// read or its Write would wait.
	go func() {
		defer close(r.done)
		buf := make([]byte, 1024)
		for {
			if _, err := r.emu.Read(buf); err != nil {
				return
			}
		}
	}()
	return r
}

// Write feeds p to the emulator a piece at a time, printing what scrolls
// off the screen.
func (r *Renderer) Write(p []byte) error {
	for len(p) > 0 {
		n := min(len(p), piece)
		_, _ = r.emu.Write(p[:n])
		p = p[n:]
		if err := r.drain(); err != nil {
			return err
		}
	}
	return nil
}

// drain prints the scrollback's lines and empties it.
func (r *Renderer) drain() error {
	n := r.emu.ScrollbackLen()
	for y := range n {
		if err := r.line(rowText(func(x int) *uv.Cell { return r.emu.ScrollbackCellAt(x, y) })); err != nil {
			return err
		}
	}
	if n > 0 {
		r.emu.ClearScrollback()
	}
	return nil
}

// Finish prints what is left: the scrollback, then the screen, trailing
// blank lines trimmed.
func (r *Renderer) Finish() error {
	if err := r.drain(); err != nil {
		return err
	}
	for y := 0; y < r.emu.Height(); y++ {
		if err := r.line(rowText(func(x int) *uv.Cell {
			if x >= r.emu.Width() {
				return nil
			}
			return r.emu.CellAt(x, y)
		})); err != nil {
			return err
		}
	}
	return nil
}

func (r *Renderer) line(s string) error {
	if s == "" {
		r.blanks++
		return nil
	}
	if _, err := io.WriteString(r.w, strings.Repeat("\n", r.blanks)+s+"\n"); err != nil {
		return err
	}
	r.blanks = 0
	return nil
}

// Close stops the emulator and its reader.
func (r *Renderer) Close() {
	if pw, ok := r.emu.InputPipe().(*io.PipeWriter); ok {
		pw.CloseWithError(io.EOF)
	}
	<-r.done
	_ = r.emu.Close()
}

// rowText is one line of cells as text; a wide character's second cell
// holds nothing and adds nothing.
func rowText(at func(x int) *uv.Cell) string {
	var b strings.Builder
	for x := 0; ; x++ {
		c := at(x)
		if c == nil {
			break
		}
		switch {
		case c.Content != "":
			b.WriteString(c.Content)
		case c.Width != 0:
			b.WriteByte(' ')
		}
	}
	return textsafe.Line(strings.TrimRight(b.String(), " "))
}
