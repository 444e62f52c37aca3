//go:build unix

package tmux

import (
	"fmt"
	"os"
	"syscall"
)

// openFIFO makes a named pipe at path and opens its read end. O_NONBLOCK
// lets the open return before any writer exists and hands the file to the
// runtime poller, so a Read parks without a thread and Close ends it.
//
// A FIFO's reader sees EOF once no writer holds it open, so the reader must
// not Read before pipe-pane's command has opened the write end: Spawn and
// Adopt wait for that command's signal before they return.
func openFIFO(path string) (*os.File, error) {
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		return nil, fmt.Errorf("make output pipe: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("open output pipe: %w", err)
	}
	return f, nil
}
