package tmux

import (
	"io"
	"os"
)

// paneReader is how the pane's output is read: gathered in a flood. On
// Linux pipe-pane's socket pair holds what gatherFor gathers (its sender's
// buffer is net.core.wmem_default, 208 KiB unless changed).
func paneReader(f *os.File) io.Reader { return newGatherer(f) }
