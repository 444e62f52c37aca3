//go:build unix

package cli

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// watchResize calls resize each time the terminal window changes size
// (SIGWINCH), until ctx ends.
func watchResize(ctx context.Context, fd int, resize func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGWINCH)
	defer signal.Stop(ch)
	for {
		select {
		case <-ctx.Done():
			return
		case <-ch:
			resize()
		}
	}
}
