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
