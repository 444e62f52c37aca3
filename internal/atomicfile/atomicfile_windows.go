package atomicfile

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// rename replaces to with from (MoveFileEx with MOVEFILE_REPLACE_EXISTING,
// which os.Rename uses). Windows refuses it while another program holds
// to open without FILE_SHARE_DELETE — a virus scanner or an indexer
// reading the file we just wrote, a client reading station.json — and
// such a hold is brief, so the rename is tried again for about a second
// before it is given up.
func rename(from, to string) error {
	wait := 5 * time.Millisecond
	for try := 0; ; try++ {
		err := os.Rename(from, to)
		if err == nil || !held(err) || try == 8 {
			return err
		}
		time.Sleep(wait)
		wait *= 2
	}
}

// held reports whether err is another program's hold on a file.
func held(err error) bool {
	return errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_SHARING_VIOLATION) ||
		errors.Is(err, windows.ERROR_LOCK_VIOLATION)
}

// syncDir does nothing: Windows cannot open a folder to flush it, and NTFS
// journals the rename itself.
func syncDir(string) error { return nil }
