//go:build !windows

package cli

import "io"

// enableVT is a no-op: unix terminals interpret VT sequences already.
func enableVT(io.Writer) func() { return func() {} }
