//go:build !linux && !darwin && !windows

package clone

import "io/fs"

// cloneFile copies: no clone call is wired for this OS.
func cloneFile(src, dst string, perm fs.FileMode) (bool, error) {
	return false, copyBytes(src, dst, perm)
}

func cloneDir(src, dst string) (bool, error) { return false, nil }
