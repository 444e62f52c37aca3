//go:build !linux

package proctree

// Marked is Linux-only: elsewhere a process's environment cannot be read
// cheaply; the tree walk and the process group (or the Windows job object)
// have to do.
func Marked(root, marker string) []int { return nil }

// Environ is Linux-only too: nil.
func Environ(root string, pid int) []string { return nil }
