package fakeagent

import (
	"context"
	"io"
	"time"
	"unicode/utf8"
)

// submitGap is how long after the text a lone Enter must come for read-submit
// to take it as typed. An agent TUI takes a fast "text\r" burst as a paste and
// leaves it unsent; the station must type text, wait, then press Enter.
const submitGap = 100 * time.Millisecond

// chunk is what one Read of stdin returned and when: read-submit needs the
// Read boundaries and their times, which a line reader would hide.
type chunk struct {
	data []byte
	at   time.Time
	seq  int // 1, 2, …: which Read; 0 means none
}

// input reads stdin in its own goroutine from the start of a run, so that
// input typed while a step is busy is timed when it arrives, echoed at once
// on a raw terminal, and kept for the next read step.
type input struct {
	chunks chan chunk
	done   chan struct{}
	err    error // why the pump ended; written before chunks is closed

	// Line state, owned by the step goroutine.
	carry   chunk  // the unread rest of the last chunk
	line    []byte // text of the line being typed
	lineSeq int    // the chunk that last added text to line
	lineAt  time.Time
	afterCR bool // a "\n" right after "\r" ends nothing: "\r\n" is one Enter
}

// startInput starts the pump. echo, when not nil, gets typed bytes back
// (raw terminals only); interrupt is called on a Ctrl-C byte in that case.
func startInput(r io.Reader, echo io.Writer, interrupt func()) *input {
	in := &input{chunks: make(chan chunk, 64), done: make(chan struct{})}
	go in.pump(r, echo, interrupt)
	return in
}

// stop lets the pump go once a run ends. A pump blocked in Read stays until
// that Read returns: an *os.File stdin dies with the process, and tests
// close their pipes.
func (in *input) stop() { close(in.done) }

func (in *input) pump(r io.Reader, echo io.Writer, interrupt func()) {
	defer close(in.chunks)
	buf := make([]byte, 4096)
	prevCR := false
	for seq := 1; ; seq++ {
		n, err := r.Read(buf)
		if n > 0 {
			c := chunk{data: append([]byte(nil), buf[:n]...), at: time.Now(), seq: seq}
			if echo != nil {
				prevCR = echoBytes(echo, c.data, prevCR, interrupt)
			}
			select {
			case in.chunks <- c:
			case <-in.done:
				return
			}
		}
		if err != nil {
			in.err = err
			return
		}
	}
}

// echoBytes shows typed bytes the way a terminal in cooked mode would have.
func echoBytes(w io.Writer, data []byte, prevCR bool, interrupt func()) bool {
	var out []byte
	for _, b := range data {
		switch {
		case b == '\r':
			out = append(out, "\r\n"...)
		case b == '\n':
			if !prevCR {
				out = append(out, "\r\n"...)
			}
		case b == 0x7f || b == '\b':
			out = append(out, "\b \b"...)
		case b == 0x03:
			out = append(out, "^C\r\n"...)
			interrupt()
		case b < 0x20 && b != '\t':
			// Other control bytes (escape sequences' ESC) would move the cursor.
		default:
			out = append(out, b)
		}
		prevCR = b == '\r'
	}
	w.Write(out)
	return prevCR
}

// next returns the carried rest of a chunk or waits for a new one.
func (in *input) next(ctx context.Context) (chunk, error) {
	if len(in.carry.data) > 0 {
		c := in.carry
		in.carry.data = nil
		return c, nil
	}
	select {
	case c, ok := <-in.chunks:
		if !ok {
			err := in.err
			if err == nil {
				err = io.EOF
			}
			return chunk{}, err
		}
		return c, nil
	case <-ctx.Done():
		return chunk{}, ctx.Err()
	}
}

// pastedNote is what read-submit prints for a burst, for tests to look for.
const pastedNote = "pasted, not submitted"

// readLine returns the next line ended by "\r" or "\n". With submit set it
// plays an agent TUI: Enter on an empty line does nothing, and an Enter that
// came in the same Read as the text, or under submitGap after it, is a paste:
// onPaste is told, the line is dropped, and it keeps waiting.
func (in *input) readLine(ctx context.Context, submit bool, onPaste func()) (string, error) {
	for {
		c, err := in.next(ctx)
		if err != nil {
			return "", err
		}
		for i, b := range c.data {
			cr := in.afterCR
			in.afterCR = b == '\r'
			switch {
			case b == '\n' && cr:
				// The "\n" of "\r\n": that Enter was already seen.
			case b == '\r' || b == '\n':
				line := string(in.line)
				pasted := in.lineSeq == c.seq || c.at.Sub(in.lineAt) < submitGap
				in.line, in.lineSeq = in.line[:0], 0
				if submit && line == "" {
					continue
				}
				if submit && pasted {
					onPaste()
					continue
				}
				in.carry = chunk{data: c.data[i+1:], at: c.at, seq: c.seq}
				return line, nil
			case b == 0x7f || b == '\b':
				_, size := utf8.DecodeLastRune(in.line)
				in.line = in.line[:len(in.line)-size]
			case b < 0x20 && b != '\t':
				// Ctrl-C and escape sequences are not text.
			default:
				in.line = append(in.line, b)
				in.lineSeq, in.lineAt = c.seq, c.at
			}
		}
	}
}

// read runs read, read-prompt and read-submit.
func (r *runner) read(ctx context.Context, s Step) error {
	if s.Verb == "read-prompt" {
		r.printf("%s", s.Text)
	}
	if r.in == nil {
		r.errorf("%s: no input to read", s.Verb)
		return exitError{exitInputClosed}
	}
	line, err := r.in.readLine(ctx, s.Verb == "read-submit", func() {
		r.printf("%s", pastedNote)
	})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		r.errorf("%s: input closed: %v", s.Verb, err)
		return exitError{exitInputClosed}
	}
	r.printf("got: %s", line)
	return nil
}
