//go:build windows

package cli

import (
	"context"
	"time"

	"golang.org/x/term"
)

// resizePoll is how often the window size is checked on Windows. A poll,
// because a Windows console has no SIGWINCH: size changes arrive only as
// WINDOW_BUFFER_SIZE_EVENT records through ReadConsoleInput, which would
// compete with our reads of stdin for the keys. Half a second is quick
// enough for a person dragging a window and costs nothing.
var resizePoll = 500 * time.Millisecond

// watchResize calls resize each time the console window changes size,
// until ctx ends.
func watchResize(ctx context.Context, fd int, resize func()) {
	w0, h0, _ := term.GetSize(fd)
	t := time.NewTicker(resizePoll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			w, h, err := term.GetSize(fd)
			if err == nil && (w != w0 || h != h0) {
				w0, h0 = w, h
				resize()
			}
		}
	}
}
