//go:build !windows

package gitwt

import (
	"os"
	"syscall"
)

// ownedByOther reports whether dir belongs to a user other than the one
// the station runs as, and whose it is.
func ownedByOther(dir string) (uid int, other bool) {
	fi, err := os.Stat(dir)
	if err != nil {
		return 0, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), int(st.Uid) != os.Geteuid()
}
