//go:build unix

package treekill

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
)

// TestCoalescerShares: callers that ask while a read runs share one next
// read, each gets a read that started after it asked, and every key asked
// for reaches that read.
func TestCoalescerShares(t *testing.T) {
	var c coalescer[map[string]bool]
	var reads atomic.Int32
	gate := make(chan struct{})
	read := func(keys map[string]bool) (map[string]bool, error) {
		if reads.Add(1) == 1 {
			<-gate // the first read is slow: everyone else queues behind it
		}
		out := map[string]bool{}
		for k := range keys {
			out[k] = true
		}
		return out, nil
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		if got, _ := c.do("first", read); !got["first"] {
			t.Error("the first read lacks its own key")
		}
	})
	for reads.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	keys := []string{"a", "b", "c", "d", "e"}
	for _, k := range keys {
		wg.Go(func() {
			got, _ := c.do(k, read)
			if !got[k] {
				t.Errorf("key %s missing from the read it waited for: %v", k, got)
			}
		})
	}
	// Let them all queue, then release the first read.
	testwait.Eventually(t, 5*time.Second, func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.next != nil && len(c.next.keys) == len(keys)
	}, "every caller queued behind the first read")
	close(gate)
	wg.Wait()
	if n := reads.Load(); n != 2 {
		t.Errorf("%d reads for 6 callers, want 2 (one running, one shared)", n)
	}
}
