package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/buildstation/buildstation/supervisor/apitype"
)

// events streams supervisor events as Server-Sent Events, one JSON object
// per "data:" line, for the tray. A subscriber that falls behind misses
// events (the bus never waits); a client should re-read state on reconnect.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	// The server's timeouts are for short requests; a stream lasts as long
	// as the client stays. A read deadline left in place would make the
	// server's background read fail and cancel the request.
	_ = rc.SetWriteDeadline(time.Time{})
	_ = rc.SetReadDeadline(time.Time{})

	sub := s.areas.Sessions.Subscribe(256)
	defer sub.Close()
	if r.Header.Get(apitype.HeaderShowsNotices) == "1" {
		s.noticeShowers.Add(1)
		defer s.noticeShowers.Add(-1)
	}

	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if err := rc.Flush(); err != nil {
		return
	}

	tick := time.NewTicker(s.keepalive)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
			if _, err := fmt.Fprint(w, ": keepalive\n\n"); err != nil {
				return
			}
		case e, ok := <-sub.C:
			if !ok {
				return
			}
			b, err := json.Marshal(e)
			if err != nil {
				s.log.ErrorContext(r.Context(), "encode event", "err", err)
				continue
			}
			if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
				return
			}
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
}
