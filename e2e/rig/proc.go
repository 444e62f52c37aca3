//go:build unix

package rig

import (
	"bytes"
	"fmt"
	"os"
	"syscall"
)

// Alive reports whether pid is a live (not zombie) process: a session's
// agent or its child, which the station must end with the session.
func Alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return !os.IsNotExist(err) // no /proc (macOS): kill said it runs
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || i+2 >= len(b) || b[i+2] != 'Z'
}
