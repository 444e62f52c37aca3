package instance

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// LockName is the file in the home that the running station holds an OS
// lock on (flock on unix, LockFileEx on Windows) for its whole life. The
// file holds the owner's pid for the message a second station prints; the
// lock, not the file, is what decides, so a station that crashed leaves no
// stale claim: the OS drops the lock with the process.
const LockName = "station.lock"

// OwnedError is LockHome's answer when another live process holds the home.
type OwnedError struct {
	Home string
	PID  int // 0 when the owner has not written its pid yet
}

func (e *OwnedError) Error() string {
	if e.PID == 0 {
		return fmt.Sprintf("another station owns this home (%s)", e.Home)
	}
	return fmt.Sprintf("another station owns this home (pid %d, %s)", e.PID, e.Home)
}

// IsOwned reports whether err says another station owns the home.
func IsOwned(err error) bool {
	var o *OwnedError
	return errors.As(err, &o)
}

// HomeLock is a held home. Release it when the station ends; the OS
// releases it if the process dies first.
type HomeLock struct {
	f *os.File
}

// LockHome takes the home for this process, without waiting: it returns an
// *OwnedError when another process holds it. One atomic OS call decides,
// so two stations started in the same instant cannot both win (a
// check-then-act on station.json could).
func LockHome(home string) (*HomeLock, error) {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, fmt.Errorf("create home %s: %w", home, err)
	}
	path := filepath.Join(home, LockName)
	f, held, err := lockFile(path)
	if err != nil {
		return nil, err
	}
	if !held {
		pid := ownerPID(path)
		if pid == 0 || alive(pid) {
			return nil, &OwnedError{Home: home, PID: pid}
		}
		if f, err = awaitDeadOwner(path); err != nil {
			return nil, err
		}
		if f == nil {
			return nil, &OwnedError{Home: home, PID: pid}
		}
	}
	if err := writePID(f); err != nil {
		unlock(f)
		f.Close()
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return &HomeLock{f: f}, nil
}

// deadOwnerWait bounds the wait for a lock whose recorded owner is dead.
// A station killed with -9 may leave its lock held for a moment by a child
// it was starting: between fork and exec the child shares every
// descriptor, the lock's included, until exec closes them.
const deadOwnerWait = 3 * time.Second

// awaitDeadOwner tries the lock again until it is free or deadOwnerWait
// passes; nil when it stayed held.
func awaitDeadOwner(path string) (*os.File, error) {
	for end := time.Now().Add(deadOwnerWait); time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
		f, held, err := lockFile(path)
		if err != nil || held {
			return f, err
		}
	}
	return nil, nil
}

// lockFile opens path and takes its OS lock without waiting; held is false
// (and the file closed) when another open file holds it.
func lockFile(path string) (f *os.File, held bool, err error) {
	// os.OpenFile's descriptor is close-on-exec (not inherited on
	// Windows): an agent the station starts never holds the lock.
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, false, fmt.Errorf("open %s: %w", path, err)
	}
	held, err = tryLock(f)
	if err != nil || !held {
		f.Close()
		if err != nil {
			return nil, false, fmt.Errorf("lock %s: %w", path, err)
		}
		return nil, false, nil
	}
	return f, true, nil
}

// Release gives the home up.
func (l *HomeLock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	// The pid is cleared first so a reader never names a dead owner.
	_ = l.f.Truncate(0)
	unlock(l.f)
	err := l.f.Close()
	l.f = nil
	return err
}

func writePID(f *os.File) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err := f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return err
}

// ownerPID reads the holder's pid. The holder writes it just after taking
// the lock, so a station that lost a race by a hair may read an empty file:
// it looks again for a short while before saying "unknown".
func ownerPID(path string) int {
	for i := 0; i < 20; i++ {
		if b, err := os.ReadFile(path); err == nil {
			if pid, err := strconv.Atoi(string(bytes.TrimSpace(b))); err == nil && pid > 0 {
				return pid
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	return 0
}
