package api

import "time"

// SetKeepalive shortens the event stream's keepalive for a test.
func (s *Server) SetKeepalive(d time.Duration) { s.keepalive = d }
