//go:build unix

package apitype

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// CheckHome refuses a home another user could have changed: one owned by
// someone else, or writable by the group or others. A home holds the
// station token and station.json, which says where the CLI sends that
// token, and config.toml, which says what commands agents run; a home
// another user could write (a folder they made first in a shared temp
// folder, say) could hold a planted station.json that harvests the token or
// a config that runs their command. A home that does not exist yet passes:
// it is created 0700. A home only readable by others is not refused here
// (nothing can have been planted, and the token and every file in it are
// 0600); SecureHome makes it 0700.
func CheckHome(dir string) error {
	st, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("check home %s: %w", dir, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("home %s is not a folder; pass --home with a folder of your own", dir)
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Geteuid() {
		return fmt.Errorf("home %s belongs to another user (uid %d), who could read its token or plant its files; use a home folder of your own (--home or %s)", dir, sys.Uid, EnvHome)
	}
	if perm := st.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Errorf("home %s is open to other users (mode %04o), who could have planted its files; check config.toml and station.json are yours, then make it yours alone with: chmod 700 %s", dir, perm, dir)
	}
	return nil
}

// SecureHome checks dir as CheckHome does, then takes the group's and
// others' read and search rights away (mode 0700): the station's own home
// is the user's alone, whatever umask made it.
func SecureHome(dir string) error {
	if err := CheckHome(dir); err != nil {
		return err
	}
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("check home %s: %w", dir, err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("make home %s yours alone (chmod 700): %w", dir, err)
		}
	}
	return nil
}
