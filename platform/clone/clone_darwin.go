package clone

import (
	"errors"
	"io/fs"

	"golang.org/x/sys/unix"
)

// cloneFile clones src with clonefile(2) (APFS), which refuses a dst that
// exists; on a file system without clones it copies.
func cloneFile(src, dst string, perm fs.FileMode) (bool, error) {
	err := unix.Clonefile(src, dst, unix.CLONE_NOFOLLOW)
	if err == nil {
		return true, nil
	}
	if errors.Is(err, unix.EEXIST) {
		return false, err
	}
	return false, copyBytes(src, dst, perm)
}

// cloneDir clones a whole folder in one clonefile(2) call, when dst does
// not exist yet and the file system is APFS.
func cloneDir(src, dst string) (bool, error) {
	err := unix.Clonefile(src, dst, unix.CLONE_NOFOLLOW)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, unix.ENOTSUP), errors.Is(err, unix.EXDEV), errors.Is(err, unix.EINVAL):
		return false, nil
	}
	return false, err
}
