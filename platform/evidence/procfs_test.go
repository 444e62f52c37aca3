package evidence

import (
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// fakeProcFS is a synthetic /proc: <root>/stat with btime, and one
// <root>/<pid>/stat per process in the kernel's format (proc(5)).
type fakeProcFS struct {
	t    testing.TB
	root string
	boot time.Time
}

// proc is one synthetic process; times are clock ticks (1/100 s).
type proc struct {
	pid, ppid              int
	comm                   string
	ut, st, cut, cst, born uint64
}

func newFakeProcFS(t testing.TB, boot time.Time) *fakeProcFS {
	t.Helper()
	root := t.TempDir()
	stat := "cpu  1 2 3 4 5 6 7 0 0 0\nbtime " + strconv.FormatInt(boot.Unix(), 10) + "\nprocesses 1234\n"
	if err := os.WriteFile(filepath.Join(root, "stat"), []byte(stat), 0o644); err != nil {
		t.Fatal(err)
	}
	return &fakeProcFS{t: t, root: root, boot: boot}
}

// set writes (or rewrites) a process's stat file.
func (f *fakeProcFS) set(ps ...proc) {
	f.t.Helper()
	for _, p := range ps {
		dir := filepath.Join(f.root, strconv.Itoa(p.pid))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			f.t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "stat"), []byte(statLine(p)), 0o644); err != nil {
			f.t.Fatal(err)
		}
	}
}

// remove makes processes vanish, as when they exit and are reaped.
func (f *fakeProcFS) remove(pids ...int) {
	f.t.Helper()
	for _, pid := range pids {
		if err := os.RemoveAll(filepath.Join(f.root, strconv.Itoa(pid))); err != nil {
			f.t.Fatal(err)
		}
	}
}

// statLine builds a proc(5) stat line; the fields the prober ignores are
// plausible constants (as in proctree's tests).
func statLine(p proc) string {
	i, u := strconv.Itoa, func(v uint64) string { return strconv.FormatUint(v, 10) }
	return i(p.pid) + " (" + p.comm + ") S " + i(p.ppid) + " " + i(p.pid) + " " + i(p.pid) +
		" 34816 1234 4194560 100 0 0 0 " + u(p.ut) + " " + u(p.st) + " " + u(p.cut) + " " + u(p.cst) +
		" 20 0 1 0 " + u(p.born) + " 2408448 200 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 3 0 0 0 0 0\n"
}

// fakeClock is a settable clock, safe for the concurrent probes test.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}
