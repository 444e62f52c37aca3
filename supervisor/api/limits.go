package api

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"
)

// How long a request's body may take to arrive once its headers have. A
// request holds no slot while its body arrives (bounded reads it first),
// but a connection that trickles its body must still not last: any local
// user may open one to the unauthenticated challenge, so that route gets
// a deadline of its own, just long enough for a few hundred bytes.
const (
	bodyReadTimeout         = 10 * time.Second
	strangerBodyReadTimeout = 2 * time.Second
	maxStrangerBody         = 4 << 10
)

// limiter is one pool of slots for requests being answered, with how long
// and how big their bodies may be.
type limiter struct {
	slots    chan struct{}
	bodyWait time.Duration
	maxBody  int64
}

func newLimiter(n int, bodyWait time.Duration, maxBody int64) *limiter {
	return &limiter{slots: make(chan struct{}, n), bodyWait: bodyWait, maxBody: maxBody}
}

// bounded answers through h while l has a free slot; otherwise it waits
// up to queueWait for one and then refuses with 503 and Retry-After: a
// flood of clients costs bounded memory and the ones answered stay fast,
// instead of every request slowing until most time out.
//
// The body is read whole, within wait, before a slot is taken: a slot is
// for answering, and a client that sends its body slowly (by accident or
// to hold the station) holds only its own connection, which the deadline
// ends.
func (s *Server) bounded(l *limiter, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !readBody(w, r, l.bodyWait, l.maxBody) {
			return
		}
		// Read at each request: a test may swap the slots (SetInFlight).
		pool := l.slots
		if !s.take(w, r, pool) {
			return
		}
		defer func() { <-pool }()
		h.ServeHTTP(w, r)
	})
}

// take waits for a slot in pool; on false it has answered the request.
func (s *Server) take(w http.ResponseWriter, r *http.Request, pool chan struct{}) bool {
	select {
	case pool <- struct{}{}:
		return true
	default:
	}
	t := time.NewTimer(s.queueWait)
	defer t.Stop()
	select {
	case pool <- struct{}{}:
		return true
	case <-t.C:
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("the station is busy (%d requests in flight); retry in a second", cap(pool)))
	case <-r.Context().Done():
	}
	return false
}

// readBody reads r's body (up to limit bytes) within wait and puts it back
// as a buffer; on false it has answered the request.
func readBody(w http.ResponseWriter, r *http.Request, wait time.Duration, limit int64) bool {
	if r.Body == nil || r.Body == http.NoBody {
		return true
	}
	rc := http.NewResponseController(w)
	// Not every ResponseWriter can set deadlines (a test's recorder):
	// there the body is read without one.
	deadlineSet := rc.SetReadDeadline(time.Now().Add(wait)) == nil
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if deadlineSet {
		rc.SetReadDeadline(time.Time{})
	}
	var tooBig *http.MaxBytesError
	switch {
	case err == nil:
		r.Body = io.NopCloser(bytes.NewReader(b))
		return true
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is over %d bytes; send less text", limit))
	case errors.Is(err, os.ErrDeadlineExceeded):
		w.Header().Set("Connection", "close")
		writeError(w, http.StatusRequestTimeout, fmt.Sprintf("the request body did not arrive within %s; send it whole", wait))
	default:
		// The client went away; nobody reads an answer.
	}
	return false
}
