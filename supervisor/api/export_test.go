package api

import "time"

// SetKeepalive shortens the event stream's keepalive for a test.
func (s *Server) SetKeepalive(d time.Duration) { s.keepalive = d }

// EarlierReasons is get_task's list of reasons from a task's history.
var EarlierReasons = earlierReasons

// SetInFlight sets the in-flight bound and the wait for a slot, for a test.
func (s *Server) SetInFlight(n int, wait time.Duration) {
	s.inflight.slots = make(chan struct{}, n)
	s.queueWait = wait
}
