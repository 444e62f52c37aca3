//go:build !windows

package cli

import "io"

// enableVT is a no-op: unix terminals interpret VT sequences already.
func enableVT(io.Writer) func() { return func() {} }

// AttachParentConsole is a no-op: only a Windows GUI program starts
// without the standard handles of the shell it was typed in.
func AttachParentConsole([]string) {}
