package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"sync/atomic"
	"time"
)

// Server serves the station's API over HTTP.
type Server struct {
	areas   Areas
	token   string
	log     *slog.Logger
	mux     *http.ServeMux
	handler http.Handler

	// keepalive is how often an idle event stream gets a comment line, so
	// proxies and the client notice a dead connection. A field so tests can
	// shorten it.
	keepalive time.Duration

	// inflight holds a slot per authenticated request being answered
	// (streams aside); strangers holds a slot per unauthenticated one
	// (the challenge), so they can never take what the station's owner
	// and its agents need. queueWait is how long a request waits for a
	// slot before a 503.
	inflight, strangers *limiter
	// agents holds the session routes' slots, and asks the requests that
	// wait for a person: their own, so neither the owner's calls nor a
	// session's take the other's, and bounded like every route.
	agents, asks *limiter
	// callers places operator actions' callers (origin.go); nil: unknown.
	callers   Callers
	queueWait time.Duration
	// connOwners tells the station's own user's connections from
	// another's (conns.go); nil: the OS cannot tell.
	connOwners ConnOwners

	// noticeShowers counts the event streams of clients that show the
	// station's notices themselves (a tray): while one is connected the
	// station shows none of its own (NoticesShown).
	noticeShowers atomic.Int64

	// pages keeps recent task listings while the board is unchanged.
	pages pages
}

// NoticesShown reports whether a client that shows notices is connected.
func (s *Server) NoticesShown() bool { return s.noticeShowers.Load() > 0 }

// maxInFlight bounds the requests answered at once. Past it a request waits
// queueWait for a slot, then gets 503 with Retry-After: a flood of clients
// costs bounded memory and the ones answered stay fast, instead of every
// request slowing until most time out.
const (
	maxInFlight         = 64
	maxStrangerInFlight = 8
	defaultQueueWait    = time.Second
)

// Timeouts of the http.Server. Streaming routes (events, attach) clear their
// own deadlines; everything else is a short request and must not hold a
// connection open forever.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = time.Minute
	writeTimeout      = time.Minute
	idleTimeout       = 2 * time.Minute
	shutdownGrace     = 5 * time.Second
)

// NewServer returns a server for the station's areas that accepts
// stationToken as the token allowed to do everything. log may be nil.
func NewServer(a Areas, stationToken string, log *slog.Logger) *Server {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{
		areas:     a,
		token:     stationToken,
		log:       log,
		mux:       http.NewServeMux(),
		keepalive: 15 * time.Second,
		inflight:  newLimiter(maxInFlight, maxInFlight, bodyReadTimeout, maxBody, 0),
		// A stranger's body is read as it comes, bounded by the
		// strangers' connections (conns.go), whose bodies are tiny.
		strangers: newLimiter(maxStrangerInFlight, maxStrangerConns, strangerBodyReadTimeout, maxStrangerBody, 0),
		agents:    newLimiter(maxAgentInFlight, maxAgentInFlight, bodyReadTimeout, maxAgentBody, maxSessionPending),
		asks:      newLimiter(maxAsksWaiting, maxAsksWaiting, bodyReadTimeout, maxAskBody, 2),
		queueWait: defaultQueueWait,
	}
	s.routes()
	s.handler = s.guard(s.mux)
	return s
}

// Handler returns the whole API, behind the Host, Origin and token checks.
func (s *Server) Handler() http.Handler { return s.handler }

// Mount adds h at pattern (a ServeMux pattern) behind the same Host, Origin
// and token checks as every route: any valid token reaches h. Wrap h with
// RequireSession or RequireStation to narrow who may use it.
// Requests other than GET (which a streaming handler such as MCP's uses
// for its long-lived stream) count toward the in-flight bound.
func (s *Server) Mount(pattern string, h http.Handler) {
	b, agent := s.bounded(s.inflight, h), s.bounded(s.agents, h)
	s.mux.Handle(pattern, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			h.ServeHTTP(w, r)
			return
		}
		if p, ok := s.authenticate(r); ok && !p.station {
			// A session's tool call: the session routes' slots.
			agent.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), principalKey, p)))
			return
		}
		b.ServeHTTP(w, r)
	}))
}

// Listen opens the API's listener on a free loopback port. Loopback only: the
// station is for this machine's user, never the network.
func Listen() (net.Listener, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen on loopback: %w", err)
	}
	return ln, nil
}

// Serve answers requests on ln until ctx is cancelled, then shuts down:
// in-flight requests get a short grace, streams end at once (their contexts
// derive from ctx). It returns nil after a shutdown asked for by ctx.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    64 << 10,
		BaseContext:       func(net.Listener) context.Context { return ctx },
		ConnContext:       withConn,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
	}
	errc := make(chan error, 1)
	tracked := &listener{Listener: ln, s: &strangers{max: maxStrangerConns, maxKin: maxKinConns, owners: s.connOwners}}
	if ap, err := netip.ParseAddrPort(ln.Addr().String()); err == nil {
		tracked.s.server = ap
	} else {
		tracked.s.owners = nil
	}
	go func() { errc <- srv.Serve(tracked) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve API on %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve API on %s: %w", ln.Addr(), err)
	}
	return nil
}
