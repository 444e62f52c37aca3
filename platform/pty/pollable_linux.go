package pty

import (
	"os"

	"golang.org/x/sys/unix"
)

// pollable hands the master to the runtime poller. creack/pty returns it in
// blocking mode (its ioctls call Fd), and a blocking read cannot be
// interrupted: Close would not end a Read while an orphaned grandchild still
// holds the terminal open. A non-blocking duplicate fixes that; the
// original is closed.
func pollable(f *os.File) (*os.File, error) {
	// F_DUPFD_CLOEXEC, not Dup then CloseOnExec: an agent forked by
	// another session in between would inherit the master, and this
	// session's Read would never see EOF.
	fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	_ = f.Close()
	if err != nil {
		return nil, err
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		_ = unix.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), f.Name()), nil
}
