package api

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
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

// Bounds of the session routes (a session token's): an agent may be
// hostile, and its token is no reason to let it hold the station. Its
// bodies are small (a hook's few fields, a summary, a request), its
// requests few at once (one hook, one ask, a tool call).
const (
	maxAgentBody      = 256 << 10
	maxAskBody        = 32 << 10
	maxAgentInFlight  = 64
	maxAsksWaiting    = 64
	maxSessionPending = 8
)

// limiter is one pool of slots for requests being answered, with how long
// and how big their bodies may be, how many bodies may be arriving at
// once, and how many requests one caller (a session) may have pending.
type limiter struct {
	slots    chan struct{}
	reading  chan struct{}
	bodyWait time.Duration
	maxBody  int64
	// perCaller bounds one session's requests pending in this pool, from
	// the first byte of their body to their answer; 0: no bound.
	perCaller int
	mu        sync.Mutex
	callers   map[string]int
}

func newLimiter(n, reading int, bodyWait time.Duration, maxBody int64, perCaller int) *limiter {
	return &limiter{slots: make(chan struct{}, n), reading: make(chan struct{}, reading), bodyWait: bodyWait,
		maxBody: maxBody, perCaller: perCaller, callers: map[string]int{}}
}

// enter counts a request of caller; false when the caller has its
// perCaller pending already.
func (l *limiter) enter(caller string) bool {
	if caller == "" || l.perCaller <= 0 {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.callers[caller] >= l.perCaller {
		return false
	}
	l.callers[caller]++
	return true
}

func (l *limiter) leave(caller string) {
	if caller == "" || l.perCaller <= 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.callers[caller]--; l.callers[caller] <= 0 {
		delete(l.callers, caller)
	}
}

// bounded answers through h while l has a free slot; otherwise it waits
// up to queueWait for one and then refuses with 503 and Retry-After: a
// flood of clients costs bounded memory and the ones answered stay fast,
// instead of every request slowing until most time out.
//
// The body is read whole, within wait, before a slot is taken: a slot is
// for answering, and a client that sends its body slowly (by accident or
// to hold the station) holds only its own connection, which the deadline
// ends. Bodies arriving at once are bounded too (l.reading), and so are
// one session's pending requests (l.perCaller): memory is bounded by
// slots and caps, whatever a session's agent opens.
func (s *Server) bounded(l *limiter, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		caller := ""
		if sess, ok := SessionFromContext(r.Context()); ok {
			caller = sess.ID
		}
		if !l.enter(caller) {
			refuse(w, fmt.Sprintf("session %s has %d requests pending already; wait for their answers", caller, l.perCaller))
			return
		}
		defer l.leave(caller)
		if !s.take(w, r, l.reading) {
			return
		}
		ok := readBody(w, r, l.bodyWait, l.maxBody)
		<-l.reading
		if !ok {
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

// refuse answers 503 with Retry-After and ends the connection at once,
// without waiting for a body that may never come.
func refuse(w http.ResponseWriter, msg string) {
	_ = http.NewResponseController(w).SetReadDeadline(time.Now())
	w.Header().Set("Retry-After", "1")
	w.Header().Set("Connection", "close")
	writeError(w, http.StatusServiceUnavailable, msg)
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
		refuse(w, fmt.Sprintf("the station is busy (%d requests in flight); retry in a second", cap(pool)))
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
	var tooBig *http.MaxBytesError
	switch {
	case err == nil:
		if deadlineSet {
			rc.SetReadDeadline(time.Time{})
		}
		r.Body = io.NopCloser(bytes.NewReader(b))
		return true
	case errors.As(err, &tooBig):
		// The deadline stays: the rest of the body is not waited for.
		w.Header().Set("Connection", "close")
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is over %d bytes; send less text", limit))
	case errors.Is(err, os.ErrDeadlineExceeded):
		w.Header().Set("Connection", "close")
		writeError(w, http.StatusRequestTimeout, fmt.Sprintf("the request body did not arrive within %s; send it whole", wait))
	default:
		// The client went away; nobody reads an answer.
	}
	return false
}
