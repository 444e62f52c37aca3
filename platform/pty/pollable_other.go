//go:build unix && !linux

package pty

import "os"

// pollable keeps the master blocking outside Linux: kqueue's support for
// pty masters has been unreliable (creack/pty reverted its non-blocking mode
// for that), and a Read there ends once the tree is dead anyway.
func pollable(f *os.File) (*os.File, error) { return f, nil }
