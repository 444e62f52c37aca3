package goroutines

import (
	"sync/atomic"
	"testing"
	"testing/synctest"
)

// Close returns only once every goroutine started through the group has,
// and the group starts nothing after it.
func TestCloseWaitsForEveryGoroutine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var g Group
		release := make(chan struct{})
		var ended atomic.Int64
		for range 3 {
			if !g.Go(func() { <-release; ended.Add(1) }) {
				t.Fatal("an open group refused work")
			}
		}
		synctest.Wait()
		if n := g.Running(); n != 3 {
			t.Fatalf("Running = %d with three goroutines blocked, want 3", n)
		}
		closed := make(chan struct{})
		go func() { g.Close(); close(closed) }()
		synctest.Wait()
		select {
		case <-closed:
			t.Fatal("Close returned while the group's goroutines ran")
		default:
		}
		close(release)
		<-closed
		if ended.Load() != 3 || g.Running() != 0 {
			t.Fatalf("after Close: %d ended, %d running; want 3 and 0", ended.Load(), g.Running())
		}
		if g.Go(func() { t.Error("work ran after Close") }) {
			t.Fatal("a closed group took work")
		}
		synctest.Wait()
	})
}
