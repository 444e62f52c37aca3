//go:build unix && !linux

package tmux

import (
	"io"
	"os"
)

// paneReader is how the pane's output is read: as it comes. macOS's unix
// sockets hold 8 KiB on the sender's side (net.local.stream.sendspace),
// which tmux's end is, so a reader that waited would only slow tmux down
// to 8 KiB per wait.
func paneReader(f *os.File) io.Reader { return f }
