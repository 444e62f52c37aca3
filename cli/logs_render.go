package cli

import (
	"io"
	"strings"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/vt"
)

// renderPiece is how much of a transcript the emulator takes at once;
// between two pieces the lines that scrolled off its screen are printed and
// dropped. A piece of n bytes scrolls at most n lines off (a line feed per
// byte, or a wrap per renderCols bytes), so renderScrollback never fills
// between two drains and no line is lost.
const (
	renderPiece      = 1 << 10
	renderScrollback = 2 * renderPiece
)

// renderer plays raw terminal output through a VT emulator as it arrives
// and writes the text a person would have read: each line once it scrolled
// off the screen (it can no longer change), then, at finish, the screen.
// Its memory is one screen and a bounded scrollback, whatever the
// transcript's length.
type renderer struct {
	emu    *vt.Emulator
	w      io.Writer
	done   chan struct{}
	blanks int // empty lines held back: printed only if text follows
}

func newRenderer(w io.Writer) *renderer {
	r := &renderer{emu: vt.NewEmulator(renderCols, renderRows), w: w, done: make(chan struct{})}
	r.emu.SetScrollbackSize(renderScrollback)
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

// write feeds p to the emulator a piece at a time, printing what scrolls
// off the screen.
func (r *renderer) write(p []byte) error {
	for len(p) > 0 {
		n := min(len(p), renderPiece)
		_, _ = r.emu.Write(p[:n])
		p = p[n:]
		if err := r.drain(); err != nil {
			return err
		}
	}
	return nil
}

// drain prints the scrollback's lines and empties it.
func (r *renderer) drain() error {
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

// finish prints what is left: the scrollback, then the screen, trailing
// blank lines trimmed.
func (r *renderer) finish() error {
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

func (r *renderer) line(s string) error {
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

// close stops the emulator and its reader.
func (r *renderer) close() {
	if pw, ok := r.emu.InputPipe().(*io.PipeWriter); ok {
		pw.CloseWithError(io.EOF)
	}
	<-r.done
	_ = r.emu.Close()
}

// logsTail is how much of a transcript's end logs renders. The emulator
// renders a few MB a second and a transcript may be gigabytes (past
// transcript_max, or written before it), so logs renders the last 8 MiB —
// hundreds of thousands of lines of agent output, in seconds — and says
// what it skipped; --raw prints every byte.
var logsTail int64 = 8 << 20
