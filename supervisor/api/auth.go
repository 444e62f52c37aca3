package api

import (
	"context"
	"crypto/subtle"
	"net"
	"net/http"
	"strings"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

type ctxKey int

const principalKey ctxKey = iota

// principal is who a request's token says it comes from: the station's owner
// or one session.
type principal struct {
	station bool
	session supervisor.SessionInfo
}

// SessionFromContext returns the session whose token authenticated the
// request; ok is false for the station token or outside RequireSession.
func SessionFromContext(ctx context.Context) (supervisor.SessionInfo, bool) {
	p, ok := ctx.Value(principalKey).(principal)
	if !ok || p.station {
		return supervisor.SessionInfo{}, false
	}
	return p.session, true
}

// guard refuses what a web page could send (a foreign Host, any Origin)
// before it looks at the token, then resolves the token to a principal; no
// or an unknown token is a 401. Which principal may use which route is up
// to RequireStation and RequireSession.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hostAllowed(r) {
			writeError(w, http.StatusForbidden, "the Host header must be the station's loopback address (127.0.0.1:PORT or localhost:PORT); connect to the URL in station.json")
			return
		}
		if _, ok := r.Header["Origin"]; ok {
			writeError(w, http.StatusForbidden, "requests from a web page (with an Origin header) are refused; call the API from a local program")
			return
		}
		if r.URL.Path == apitype.ProvePath {
			// The station proves itself here before an agent sends its
			// token (prove.go): no token is asked for.
			next.ServeHTTP(w, r)
			return
		}
		p, ok := s.authenticate(r)
		if !ok {
			writeError(w, http.StatusUnauthorized, "a valid bearer token is required; send Authorization: Bearer with the station's token file or the session's BUILDSTATION_TOKEN")
			return
		}
		trustConn(r.Context()) // conns.go: no longer a stranger
		ctx := context.WithValue(r.Context(), principalKey, p)
		if p.station && r.Method != http.MethodGet {
			ctx = s.origin(ctx, r)
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// hostAllowed accepts only the loopback address and port the request came in
// on, by IP or as localhost. A DNS-rebinding page reaches us under its own
// host name, so its Host never matches.
func (s *Server) hostAllowed(r *http.Request) bool {
	addr, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false // not served by net/http: fail closed
	}
	ip, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return false
	}
	host := strings.ToLower(r.Host)
	if host == "localhost:"+port || host == net.JoinHostPort(ip, port) {
		return true
	}
	return host == "127.0.0.1:"+port && net.ParseIP(ip).IsLoopback()
}

// authenticate resolves the bearer token. The station token is compared in
// constant time; anything else is asked of the station as a session token.
func (s *Server) authenticate(r *http.Request) (principal, bool) {
	if p, ok := r.Context().Value(principalKey).(principal); ok {
		return p, true
	}
	tok := bearer(r)
	if tok == "" {
		return principal{}, false
	}
	if s.token != "" && subtle.ConstantTimeCompare([]byte(tok), []byte(s.token)) == 1 {
		return principal{station: true}, true
	}
	if info, ok := s.areas.Agent.SessionByToken(tok); ok {
		return principal{session: info}, true
	}
	return principal{}, false
}

func bearer(r *http.Request) string {
	h := r.Header.Get("Authorization")
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(tok)
}

// RequireStation lets only the station token through. A session token gets
// 403: an agent must not drive other sessions or the board.
func (s *Server) RequireStation(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := s.authenticate(r)
		switch {
		case !ok:
			writeError(w, http.StatusUnauthorized, "a valid bearer token is required; send Authorization: Bearer with the station's token file")
		case !p.station:
			writeError(w, http.StatusForbidden, "a session token may only use the /v1/agent/ routes; use the station's token for this one")
		default:
			h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), principalKey, p)))
		}
	})
}

// RequireSession lets only a live session's token through and puts that
// session in the request context (SessionFromContext). The station token
// gets 403: agent routes act on "my task", which only a session has.
func (s *Server) RequireSession(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := s.authenticate(r)
		switch {
		case !ok:
			writeError(w, http.StatusUnauthorized, "a valid session token is required; run this from inside a Build Station session (BUILDSTATION_TOKEN)")
		case p.station:
			writeError(w, http.StatusForbidden, "use a session token: this route acts on the session the token belongs to")
		default:
			h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), principalKey, p)))
		}
	})
}
