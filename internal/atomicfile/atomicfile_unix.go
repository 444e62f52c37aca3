//go:build !windows

package atomicfile

import (
	"errors"
	"os"
	"syscall"
)

func rename(from, to string) error { return os.Rename(from, to) }

// syncDir makes a rename in dir durable. A file system that cannot sync a
// folder (EINVAL: some network and FUSE ones) has nothing more to offer.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}
