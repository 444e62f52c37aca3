//go:build !unix && !windows

package cli

import "context"

// watchResize does nothing where there is no way to learn of a resize.
func watchResize(ctx context.Context, fd int, resize func()) {}
