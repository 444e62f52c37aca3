//go:build unix

package treekill

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/buildstation/buildstation/platform/proctree"
)

// Reads of the process table are shared between Stops. When a hundred
// sessions are blocked in the same second, a hundred Stops would each read
// every process's stat and environment, several times, and the storm of
// /proc reads would delay every other session's timers; instead one read at
// a time serves every Stop that asked while the previous one ran. A caller
// always gets a read that started after it asked, so nothing it signalled
// before is missed.
var (
	tables  coalescer[map[int]proctree.Proc]
	markers coalescer[map[string][]int]
)

// current is proctree.Current, shared.
func current() (map[int]proctree.Proc, error) {
	return tables.do("", func(map[string]bool) (map[int]proctree.Proc, error) { return proctree.Current() })
}

// marked is proctree.Marked for the live table, shared: one pass over the
// processes' environments finds every marker asked for meanwhile.
func marked(marker string) []int {
	m, _ := markers.do(marker, func(want map[string]bool) (map[string][]int, error) {
		return scanMarkers(proctree.DefaultRoot, want), nil
	})
	return m[marker]
}

// scanMarkers reads every process's environment once and returns, for each
// wanted "KEY=VALUE" entry, the processes that carry it. Where there are no
// environments to read (not Linux) it falls back to proctree.Marked.
func scanMarkers(root string, want map[string]bool) map[string][]int {
	out := map[string][]int{}
	entries, err := os.ReadDir(root)
	if err != nil {
		for m := range want {
			out[m] = proctree.Marked("", m)
		}
		return out
	}
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile(filepath.Join(root, e.Name(), "environ"))
		if err != nil {
			continue
		}
		for kv := range bytes.SplitSeq(env, []byte{0}) {
			if len(kv) > 0 && want[string(kv)] {
				out[string(kv)] = append(out[string(kv)], pid)
			}
		}
	}
	return out
}

// coalescer runs one read at a time for any number of callers: those that
// ask while a read runs share the next one, which the first of them runs
// once the current one is done. key joins the set that read is asked for.
type coalescer[T any] struct {
	mu      sync.Mutex
	running *round[T] // the read in flight, if any
	next    *round[T] // the read that callers are joining
}

type round[T any] struct {
	keys map[string]bool
	done chan struct{}
	v    T
	err  error
}

func (c *coalescer[T]) do(key string, read func(keys map[string]bool) (T, error)) (T, error) {
	c.mu.Lock()
	mine, first := c.next, false
	if mine == nil {
		mine, first = &round[T]{keys: map[string]bool{}, done: make(chan struct{})}, true
		c.next = mine
	}
	mine.keys[key] = true
	prev := c.running
	c.mu.Unlock()
	if !first {
		<-mine.done
		return mine.v, mine.err
	}
	if prev != nil {
		<-prev.done
	}
	c.mu.Lock()
	c.next, c.running = nil, mine // no one joins from here: keys are final
	c.mu.Unlock()
	mine.v, mine.err = read(mine.keys)
	close(mine.done)
	return mine.v, mine.err
}
