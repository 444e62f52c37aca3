package supervisor

import (
	"io"
)

// Attachment is one viewer of a session's console: the tray's console window
// or `session attach`. Output is delivered on a bounded channel; a viewer too
// slow to keep up loses chunks (Dropped counts them) rather than slowing the
// PTY reader, which must never wait on anyone.
type Attachment struct {
	Replay []byte        // the ring buffer at attach time
	Output <-chan []byte // live output after Replay; closed when the session ends or Close is called
	Input  io.Writer     // types raw bytes into the session
	Resize func(cols, rows uint16) error
	Close  func()
	// Dropped reports how many output chunks this viewer missed.
	Dropped func() int64
}
