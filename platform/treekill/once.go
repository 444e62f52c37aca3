package treekill

import "sync"

// Once makes a backend's Stop idempotent: the first call runs the stop
// plan (signal, grace, kill of the tree, and whatever the backend tidies
// after), every other call — later, or at the same time from another
// goroutine — waits for that one and returns its result. A session, its
// watchdog and the station's shutdown may each stop one agent; the agent
// is ended once, and none of them sees a second plan's errors about a
// tree already gone.
//
// The zero Once is ready to use; it must not be copied after first use.
type Once struct {
	once sync.Once
	err  error
}

// Stop runs plan the first time it is called and returns plan's error
// to every caller.
func (o *Once) Stop(plan func() error) error {
	o.once.Do(func() { o.err = plan() })
	return o.err
}
