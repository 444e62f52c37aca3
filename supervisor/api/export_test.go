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

// SetAgentLimits sets how many requests one session may have in flight
// and how long a session route's body may take, for a test.
func (s *Server) SetAgentLimits(perSession int, bodyWait time.Duration) {
	for _, l := range []*limiter{s.agents, s.asks} {
		l.perCaller = perSession
		l.bodyWait = bodyWait
	}
}
