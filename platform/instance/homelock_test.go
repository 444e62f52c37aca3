package instance

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestLockHomeIsExclusive(t *testing.T) {
	home := t.TempDir()
	l, err := LockHome(home)
	if err != nil {
		t.Fatal(err)
	}
	// A second open file asks again: the OS lock belongs to the first.
	_, err = LockHome(home)
	if !IsOwned(err) {
		t.Fatalf("second LockHome = %v, want another station owns this home", err)
	}
	want := "another station owns this home (pid " + strconv.Itoa(os.Getpid())
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("message %q, want it to start %q", err, want)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	l2, err := LockHome(home)
	if err != nil {
		t.Fatalf("LockHome after Release: %v", err)
	}
	l2.Release()
}

func TestLockHomeIgnoresAStaleFile(t *testing.T) {
	home := t.TempDir()
	// A crashed station's file, pid and all: only a held lock counts.
	if err := os.WriteFile(filepath.Join(home, LockName), []byte("999999\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := LockHome(home)
	if err != nil {
		t.Fatalf("LockHome over a stale file: %v", err)
	}
	defer l.Release()
	b, _ := os.ReadFile(filepath.Join(home, LockName))
	if got := strings.TrimSpace(string(b)); got != strconv.Itoa(os.Getpid()) {
		t.Errorf("lock file says %q, want this pid", got)
	}
}

// A station killed with -9 can leave its lock held for a moment by a child
// that was between fork and exec (it shares the station's descriptors
// until exec closes them). The pid in the file is then a dead process's:
// the next station waits for the lock instead of saying a dead station
// owns the home.
func TestLockHomeWaitsOutADeadOwnersLock(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, LockName)
	holder, held, err := lockFile(path)
	if err != nil || !held {
		t.Fatalf("hold the lock: %v %v", held, err)
	}
	// The dead station's pid in the file, the lock still held.
	if _, err := holder.WriteAt([]byte("999999\n"), 0); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		unlock(holder)
		holder.Close()
	}()
	l, err := LockHome(home)
	if err != nil {
		t.Fatalf("LockHome while a dead owner's lock lingers: %v", err)
	}
	l.Release()
}
