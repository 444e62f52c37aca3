package evidence

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/buildstation/buildstation/platform/proctree"
)

// snapshot is one read of the process table with its parent→children map,
// built once and shared by every session probed while it is fresh.
type snapshot struct {
	at    time.Time
	procs map[int]proctree.Proc
	kids  map[int][]int
}

// procCache reads the process table at most once per ttl. Probes that fall
// together (the watchdog checks sessions whose windows ended at the same
// moment) share one read instead of each scanning /proc.
type procCache struct {
	root string // "" = the live table
	// read, when set, reads the table instead (tests: tables recorded on
	// other OSes).
	read func() (map[int]proctree.Proc, error)
	now  func() time.Time
	ttl  time.Duration

	mu    sync.Mutex // held across a read, so concurrent probes wait for it rather than repeat it
	snap  *snapshot
	reads int // table reads, for tests

	bootOnce sync.Once
	boot     time.Time
}

func newProcCache(root string, now func() time.Time, ttl time.Duration) *procCache {
	return &procCache{root: root, now: now, ttl: ttl}
}

// get returns a snapshot no older than ttl.
func (pc *procCache) get() (*snapshot, error) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	now := pc.now()
	if pc.snap != nil && now.Sub(pc.snap.at) < pc.ttl && !now.Before(pc.snap.at) {
		return pc.snap, nil
	}
	var procs map[int]proctree.Proc
	var err error
	switch {
	case pc.read != nil:
		procs, err = pc.read()
	case pc.root == "":
		procs, err = proctree.Current()
	default:
		procs, err = proctree.Snapshot(pc.root)
	}
	pc.reads++
	if err != nil {
		return nil, err
	}
	pc.snap = &snapshot{at: now, procs: procs, kids: proctree.Children(procs)}
	return pc.snap, nil
}

// readCount reports how many times the table was read.
func (pc *procCache) readCount() int {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return pc.reads
}

// bootTime is when the machine booted, from the btime line of <root>/stat:
// process start times count clock ticks from it. ok is false where there is
// no such file (macOS, Windows).
func (pc *procCache) bootTime() (time.Time, bool) {
	pc.bootOnce.Do(func() {
		root := pc.root
		if root == "" {
			root = proctree.DefaultRoot
		}
		data, err := os.ReadFile(filepath.Join(root, "stat"))
		if err != nil {
			return
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			rest, ok := bytes.CutPrefix(sc.Bytes(), []byte("btime "))
			if !ok {
				continue
			}
			if secs, err := strconv.ParseInt(string(bytes.TrimSpace(rest)), 10, 64); err == nil && secs > 0 {
				pc.boot = time.Unix(secs, 0)
			}
			return
		}
	})
	return pc.boot, !pc.boot.IsZero()
}
