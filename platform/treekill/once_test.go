package treekill

import (
	"errors"
	"sync"
	"testing"
)

func TestOnceRunsThePlanOnce(t *testing.T) {
	var (
		o     Once
		runs  int
		mu    sync.Mutex
		wg    sync.WaitGroup
		errs  = make([]error, 8)
		gone  = errors.New("agent 42 still running")
		start = make(chan struct{})
	)
	plan := func() error {
		mu.Lock()
		runs++
		mu.Unlock()
		return gone
	}
	for i := range errs {
		wg.Go(func() {
			<-start
			errs[i] = o.Stop(plan)
		})
	}
	close(start)
	wg.Wait()
	if err := o.Stop(plan); err != gone {
		t.Errorf("a later Stop = %v, want the first call's %v", err, gone)
	}
	if runs != 1 {
		t.Errorf("the plan ran %d times, want 1", runs)
	}
	for i, err := range errs {
		if err != gone {
			t.Errorf("caller %d got %v, want %v", i, err, gone)
		}
	}
}
