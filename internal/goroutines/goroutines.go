// Package goroutines gives background work an owner. A Group starts each
// piece of work on a goroutine of its own, counts those still running,
// and Close waits for all of them: a station's Run, or the tray, does not
// return while work it started goes on (the model: tailscale's
// util/goroutines.Tracker). The work's context is the owner's to give:
// a Group holds none, so what ends the work on a stop is said where the
// work starts.
package goroutines

import (
	"sync"
	"sync/atomic"
)

// A Group is the owner of the goroutines started through it. The zero
// Group is ready to use; it must not be copied once used.
type Group struct {
	mu      sync.Mutex
	closed  bool
	wg      sync.WaitGroup
	running atomic.Int64
}

// Go runs f on a goroutine the group waits for. Once Close was called it
// starts nothing and returns false: the owner has stopped, and work it
// would no longer wait for must not begin.
func (g *Group) Go(f func()) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	g.wg.Add(1)
	g.running.Add(1)
	go func() {
		defer g.wg.Done()
		defer g.running.Add(-1)
		f()
	}()
	return true
}

// Running is how many of the group's goroutines have not returned yet.
func (g *Group) Running() int { return int(g.running.Load()) }

// Close refuses new work and waits until every goroutine of the group has
// returned. Ending them is the owner's part (cancel the context it gave
// them) before, or while, it waits.
func (g *Group) Close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	g.wg.Wait()
}
